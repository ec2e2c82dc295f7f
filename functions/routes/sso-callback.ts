import { defineRoute, problem, redirectTo } from '../../shared/http/route';
import { SsoCallbackQuerySchema, SsoTenantPathSchema } from '../../shared/identity/sso/sso-login-schemas';

export const route = defineRoute({
  method: 'GET', path: '/v1/auth/sso/{tenant}/callback', handler: 'sso-callback', auth: 'public', ipRateLimited: true, tag: 'sso',
  summary: 'OIDC redirect URI: verify the answer, sign the user in, redirect to redirect_uri?code=',
  request: { params: SsoTenantPathSchema, query: SsoCallbackQuerySchema },
  responses: {
    302: redirectTo('To the client application\'s redirect_uri: with `code` (single use, 60 s) after a login, or with `error` and `error_description` when it failed; its `state` either way'),
    401: problem('unauthenticated: no login in flight matches this answer, so there is nowhere to send the browser back to'),
  },
});
