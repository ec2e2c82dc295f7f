/**
 * Who may call: authentication of the bearer credential, the route's permission, and the
 * step-up MFA the tenant policy asks for. They run in the contract's order: credential (401)
 * → permission (403) → step-up (401 mfa_required), all before the body is parsed and
 * validated (a route whose `sessionOnly` names body fields looks at the raw JSON for them).
 */
import type { MiddlewareObj } from '@middy/core';
import { ForbiddenError, UnauthenticatedError } from '../../errors';
import { authenticateBearer, type VerifiedCaller } from '../../identity/authenticate';
import { requireRecentMfa } from '../../identity/mfa-policy';
import { tokenPrefixes } from '../../crypto/opaque-tokens';
import type { ItemKey } from '../../store/keys';
import { sessionOnlyFieldsSet, type RouteDefinition } from '../route';
import { headerOf, peekJsonBody, stateOf, type TesseraRequest } from '../request-state';

/**
 * The key of the item a route reads (`readEndpoint`), for the verified caller and this request;
 * undefined when there is nothing to read ahead (the path parameters are not valid, say).
 */
export type ReadAhead = (caller: VerifiedCaller, request: TesseraRequest) => ItemKey | undefined;

export function authenticate(route: RouteDefinition, readAhead?: ReadAhead): MiddlewareObj {
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
      const authentication = await authenticateBearer(state.deps, authorization, state.sourceIp, readAhead && ((caller) => readAhead(caller, request)));
      state.principal = authentication.principal;
      state.alongside = authentication.alongside;
    },
  } as MiddlewareObj;
}

export function authorize(route: RouteDefinition): MiddlewareObj {
  const permission = route.permission;
  return {
    before: (request: TesseraRequest) => {
      const principal = stateOf(request).principal;
      if (route.sessionOnly && principal?.credential.kind === 'pat') {
        if (route.sessionOnly === true) throw new ForbiddenError('A personal access token cannot manage credentials (password, MFA, personal access tokens, IdP); sign in to do this');
        const set = sessionOnlyFieldsSet(route, peekJsonBody(request));
        if (set.length > 0) throw new ForbiddenError(`A personal access token cannot set ${set.join(', ')}: that manages credentials (a password, an email or tenant administration); sign in to do this`);
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
