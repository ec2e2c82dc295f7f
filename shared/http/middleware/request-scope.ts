/**
 * First and last middleware of every endpoint: builds the request state (deps, request id,
 * a logger carrying the request id), renders every error as problem+json, and flushes metrics.
 * Nothing about the request body or credentials is logged.
 */
import type { MiddlewareObj } from '@middy/core';
import { getDeps } from '../../deps';
import { SERVER_ERROR_LOG_MESSAGE, requestLogger } from '../../observability';
import { clientAddressOf } from '../client-address';
import { problemResponse, toTesseraError } from '../problem';
import type { TesseraRequest } from '../request-state';

export function requestScope(routeKey: string): MiddlewareObj {
  const before = async (request: TesseraRequest) => {
    const deps = await getDeps();
    const ctx = request.event.requestContext;
    const requestId = ctx?.requestId || request.context.awsRequestId || deps.ids.next('req');
    request.context.tessera = {
      requestId,
      sourceIp: clientAddressOf(request.event, deps.config.originVerifySecret),
      userAgent: ctx?.http?.userAgent ?? '',
      deps,
      logger: requestLogger(deps.observability.logger, { request_id: requestId, route: routeKey }),
      input: {},
    };
  };

  const after = (request: TesseraRequest) => {
    const state = request.context.tessera;
    if (!state || !request.response) return;
    request.response.headers = { ...request.response.headers, 'x-request-id': state.requestId };
    state.logger.info('request', { status: request.response.statusCode, user_id: state.principal?.userId });
    state.deps.observability.flush();
  };

  const onError = (request: TesseraRequest) => {
    const state = request.context.tessera;
    const error = toTesseraError(request.error);
    const requestId = state?.requestId ?? request.context.awsRequestId ?? 'unknown';
    if (error.status >= 500) {
      (state?.logger ?? console).error(SERVER_ERROR_LOG_MESSAGE, { error: request.error });
    } else {
      state?.logger.info('request refused', { status: error.status, code: error.code, user_id: state.principal?.userId });
    }
    state?.deps.observability.flush();
    request.response = problemResponse(error, requestId);
  };

  return { before, after, onError } as MiddlewareObj;
}
