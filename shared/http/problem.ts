/**
 * The one serializer of errors: RFC 9457 problem+json with a stable `code`. Anything that is
 * not a TesseraError is an internal error: logged in full, answered without detail.
 */
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { TesseraError } from '../errors';
import { securityHeaders } from './headers';

export function toTesseraError(error: unknown): TesseraError {
  if (error instanceof TesseraError) return error;
  return new TesseraError('internal_error', 'An internal error occurred', { cause: error });
}

export function problemResponse(error: TesseraError, requestId: string): APIGatewayProxyStructuredResultV2 {
  const body = {
    type: `/problems/${error.code}`,
    title: error.title,
    status: error.status,
    code: error.code,
    // A 5xx never carries the message of whatever failed underneath.
    detail: error.status >= 500 && !error.publicDetail ? error.title : error.message,
    ...(error.errors ? { errors: error.errors } : {}),
    request_id: requestId,
  };
  return {
    statusCode: error.status,
    headers: { ...securityHeaders, ...error.headers, 'content-type': 'application/problem+json', 'x-request-id': requestId, 'cache-control': 'no-store' },
    body: JSON.stringify(body),
  };
}
