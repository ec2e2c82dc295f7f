/**
 * Who may call: authentication of the bearer credential, the route's permission, and the
 * step-up MFA the tenant policy asks for. They run in the contract's order: credential (401)
 * → permission (403) → step-up (401 mfa_required), all before the body is even parsed.
 */
import type { MiddlewareObj } from '@middy/core';
import { ForbiddenError, UnauthenticatedError } from '../../errors';
import { authenticateBearer } from '../../identity/authenticate';
import { requireRecentMfa } from '../../identity/mfa-policy';
import { consumeSourceIpRequest } from '../../identity/rate-limits';
import { tokenPrefixes } from '../../crypto/opaque-tokens';
import type { RouteDefinition } from '../route';
import { headerOf, stateOf, type TesseraRequest } from '../request-state';

export function sourceIpRateLimit(): MiddlewareObj {
  return {
    before: async (request: TesseraRequest) => {
      const state = stateOf(request);
      await consumeSourceIpRequest(state.deps, state.sourceIp);
    },
  } as MiddlewareObj;
}

export function authenticate(route: RouteDefinition): MiddlewareObj {
  return {
    before: async (request: TesseraRequest) => {
      if (route.auth === 'public') return;
      const state = stateOf(request);
      const authorization = headerOf(request, 'authorization');
      if (route.auth === 'bearer_or_mfa_token') {
        // A pending login presents its mfa_token instead; the handler resolves that one.
        const credential = authorization?.replace(/^bearer\s+/i, '');
        if (!authorization || credential?.startsWith(tokenPrefixes.mfa)) return;
      } else if (!authorization) {
        throw new UnauthenticatedError('This needs a credential: send Authorization: Bearer <access token or personal access token>');
      }
      state.principal = await authenticateBearer(state.deps, authorization, state.sourceIp);
    },
  } as MiddlewareObj;
}

export function authorize(route: RouteDefinition): MiddlewareObj {
  const permission = route.permission;
  return {
    before: (request: TesseraRequest) => {
      const principal = stateOf(request).principal;
      if (route.sessionOnly && principal?.credential.kind === 'pat') {
        throw new ForbiddenError('A personal access token cannot manage credentials (password, MFA, personal access tokens, IdP); sign in to do this');
      }
      if (!permission) return;
      if (!principal) throw new UnauthenticatedError();
      if (!principal.permissions.includes(permission)) throw new ForbiddenError(`This needs the permission ${permission}`);
    },
  } as MiddlewareObj;
}

export function stepUpMfa(route: RouteDefinition): MiddlewareObj {
  const action = route.mfaAction;
  return {
    before: async (request: TesseraRequest) => {
      if (!action) return;
      const state = stateOf(request);
      if (state.principal) await requireRecentMfa(state.deps, state.principal, action);
    },
  } as MiddlewareObj;
}
