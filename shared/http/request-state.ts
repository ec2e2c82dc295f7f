/** Per-request state carried through the middleware chain on the Lambda context. */
import type { Request } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Deps } from '../deps';
import type { Authentication } from '../identity/authenticate';
import type { Principal } from '../identity/principal';
import type { RequestLogger } from '../observability';

export interface RequestState {
  requestId: string;
  sourceIp: string;
  userAgent: string;
  deps: Deps;
  logger: RequestLogger;
  principal?: Principal;
  /** The route's item, read with the caller's user record (`readEndpoint`); set only with the principal. */
  alongside?: Authentication['alongside'];
  input: { body?: unknown; query?: unknown; params?: unknown };
}

export type TesseraContext = Context & { tessera?: RequestState };
export type TesseraRequest = Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, TesseraContext>;

export function stateOf(request: TesseraRequest): RequestState {
  const state = request.context.tessera;
  if (!state) throw new Error('request state is missing: requestScope() must run first');
  return state;
}

/** Header lookup that does not depend on the gateway's casing. */
export function headerOf(request: TesseraRequest, name: string): string | undefined {
  const headers = request.event.headers ?? {};
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/**
 * The request's JSON body as the body parser will read it, for a check that runs before the
 * parser (`sessionOnly` body fields); undefined when there is none or it is not JSON: the parser
 * and validation answer that in their turn.
 */
export function peekJsonBody(request: TesseraRequest): unknown {
  const { body, isBase64Encoded } = request.event;
  if (body === undefined || body === '') return undefined;
  try {
    return JSON.parse(isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body) as unknown;
  } catch {
    return undefined;
  }
}
