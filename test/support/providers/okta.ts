/**
 * A local Okta org management API on a loopback port (point `endpoints.okta` at it): `SSWS`
 * API tokens, reads guarded by the OAuth scope they need, Okta's error bodies (E0000011,
 * E0000006, E0000047) and rate-limit headers. Tests change `state`.
 */
import { randomBytes } from 'node:crypto';
import { json, startLocalServer, type LocalReply, type LocalRequest } from './local-server';

export const oktaToken = '00TesseraLocalOktaApiToken_0123456789abcdef';

/** API path → the scope that guards it. */
const SCOPE_OF: Record<string, string> = {
  '/api/v1/users': 'okta.users.read',
  '/api/v1/groups': 'okta.groups.read',
  '/api/v1/apps': 'okta.apps.read',
  '/api/v1/iam/assignees/users': 'okta.roles.read',
};

export interface FakeOktaState {
  /** Scopes the token's admin may use. */
  scopes: Set<string>;
  /** When set, every request is refused with 429 and this X-Rate-Limit-Reset (epoch seconds). */
  throttleUntil?: number;
  hang?: boolean;
}

export interface FakeOktaCall {
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
}

export interface FakeOkta {
  url: string;
  state: FakeOktaState;
  calls: FakeOktaCall[];
  close(): Promise<void>;
}

const oktaError = (status: number, errorCode: string, errorSummary: string, headers: Record<string, string> = {}) =>
  json(status, { errorCode, errorSummary, errorLink: errorCode, errorId: `oae${randomBytes(8).toString('hex')}`, errorCauses: [] }, headers);

export async function startFakeOkta(initial: Partial<FakeOktaState> = {}, port = 0): Promise<FakeOkta> {
  const state: FakeOktaState = { scopes: new Set(Object.values(SCOPE_OF)), ...initial };
  const calls: FakeOktaCall[] = [];

  const handle = (request: LocalRequest): LocalReply | 'hang' => {
    const path = request.url.pathname;
    calls.push({ path, query: request.url.searchParams, authorization: request.headers.authorization });
    if (state.hang) return 'hang';
    if (state.throttleUntil !== undefined) {
      return oktaError(429, 'E0000047', 'API call exceeded rate limit due to too many requests.', {
        'x-rate-limit-limit': '600',
        'x-rate-limit-remaining': '0',
        'x-rate-limit-reset': String(state.throttleUntil),
      });
    }
    if (request.headers.authorization !== `SSWS ${oktaToken}`) return oktaError(401, 'E0000011', 'Invalid token provided');
    const scope = SCOPE_OF[path];
    if (!scope) return oktaError(404, 'E0000022', 'The endpoint does not support the provided HTTP method');
    if (!state.scopes.has(scope)) return oktaError(403, 'E0000006', 'You do not have permission to perform the requested action');
    return json(200, [{ id: `00u${randomBytes(8).toString('hex')}` }], { 'x-rate-limit-limit': '600', 'x-rate-limit-remaining': '599' });
  };

  const server = await startLocalServer(handle, port);
  return { url: server.url, state, calls, close: () => server.close() };
}
