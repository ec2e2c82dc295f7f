/**
 * The per-IP request limit of the routes that take one (`ipRateLimited`: login, token, password
 * reset, MFA): counted before anything else, credential or body, is looked at.
 */
import type { MiddlewareObj } from '@middy/core';
import { consumeSourceIpRequest } from '../../identity/rate-limits';
import { stateOf, type TesseraRequest } from '../request-state';

export function sourceIpRateLimit(): MiddlewareObj {
  return {
    before: async (request: TesseraRequest) => {
      const state = stateOf(request);
      await consumeSourceIpRequest(state.deps, state.sourceIp);
    },
  } as MiddlewareObj;
}
