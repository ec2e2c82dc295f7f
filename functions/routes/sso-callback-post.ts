import { defineRoute, problem, redirectTo } from '../../shared/http/route';
import { SsoCallbackFormSchema, SsoTenantPathSchema } from '../../shared/identity/sso/sso-login-schemas';

export const route = defineRoute({
  method: 'POST', path: '/v1/auth/sso/{tenant}/callback', handler: 'sso-callback-post', auth: 'public', ipRateLimited: true, tag: 'sso',
  summary: 'SAML assertion consumer service (HTTP-POST) and OIDC form_post: verify, sign in, redirect to redirect_uri?code=',
  request: { params: SsoTenantPathSchema, body: SsoCallbackFormSchema, bodyEncoding: 'form' },
  responses: {
    302: redirectTo('To the client application\'s redirect_uri: with `code` (single use, 60 s) after a login, or with `error` and `error_description` when it failed; its `state` either way'),
    401: problem('unauthenticated: no login in flight matches this answer, so there is nowhere to send the browser back to'),
  },
});
