/**
 * The AWS JSON protocols (Smithy `awsJson1_0` / `awsJson1_1`) as a server speaks them: a POST to
 * `/` whose `X-Amz-Target` is `<Service>.<Operation>`, a JSON body in
 * `application/x-amz-json-1.x`, and an error as an HTTP 4xx/5xx whose body names the error in
 * `__type` (optionally `namespace#Name`) beside `message`. Services that moved from the Query
 * protocol (SQS) also send `x-amzn-query-error: <QueryCode>;Sender` (awsQueryCompatible).
 */
import { randomUUID } from 'node:crypto';
import type { LocalReply, LocalRequest } from '../../../infra/local/stand-ins/local-server';
import { authenticationFailure } from './caller';

export type JsonProtocolVersion = '1.0' | '1.1';

export interface JsonProtocolError {
  status: number;
  type: string;
  message: string;
  /** awsQueryCompatible services: the Query error code. */
  queryCode?: string;
}

export class AwsJsonError extends Error {
  constructor(readonly error: JsonProtocolError) {
    super(error.message);
  }
}

export function jsonReply(version: JsonProtocolVersion, body: unknown): LocalReply {
  return { status: 200, headers: { 'content-type': `application/x-amz-json-${version}`, 'x-amzn-requestid': randomUUID() }, body: JSON.stringify(body) };
}

export function jsonErrorReply(version: JsonProtocolVersion, error: JsonProtocolError): LocalReply {
  return {
    status: error.status,
    headers: {
      'content-type': `application/x-amz-json-${version}`,
      'x-amzn-requestid': randomUUID(),
      ...(error.queryCode ? { 'x-amzn-query-error': `${error.queryCode};Sender` } : {}),
    },
    body: JSON.stringify({ __type: error.type, message: error.message }),
  };
}

/** A string member of the request, or `fallback` when it is absent or not a string. */
export function stringMember(input: Record<string, unknown>, name: string, fallback = ''): string {
  const value = input[name];
  return typeof value === 'string' ? value : fallback;
}

export interface JsonOperationCall {
  operation: string;
  input: Record<string, unknown>;
}

/**
 * Answers one JSON-protocol request: authenticated, of this service's target prefix and content
 * type, dispatched to `operate`, whose thrown `AwsJsonError` becomes the error reply.
 */
export function answerJsonRequest(
  request: LocalRequest,
  service: { version: JsonProtocolVersion; targetPrefix: string; signingName: string; region: string },
  operate: (call: JsonOperationCall) => unknown,
): LocalReply {
  const { version } = service;
  const refused = authenticationFailure(request, service.signingName, service.region);
  // The JSON services answer an authentication failure with 400 and the error's name in `__type`.
  if (refused) return jsonErrorReply(version, { status: 400, ...refused });
  const target = String(request.headers['x-amz-target'] ?? '');
  const contentType = String(request.headers['content-type'] ?? '');
  if (request.method !== 'POST' || !target.startsWith(`${service.targetPrefix}.`) || contentType !== `application/x-amz-json-${version}`) {
    return jsonErrorReply(version, { status: 400, type: 'UnknownOperationException', message: `No operation for ${request.method} ${target || '(no X-Amz-Target)'} (${contentType})` });
  }
  let input: Record<string, unknown>;
  try {
    input = JSON.parse(request.body || '{}') as Record<string, unknown>;
  } catch {
    return jsonErrorReply(version, { status: 400, type: 'SerializationException', message: 'Start of structure or map found where not expected.' });
  }
  try {
    return jsonReply(version, operate({ operation: target.slice(service.targetPrefix.length + 1), input }));
  } catch (error) {
    if (error instanceof AwsJsonError) return jsonErrorReply(version, error.error);
    throw error;
  }
}
