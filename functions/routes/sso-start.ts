import { defineRoute, problem, redirectTo } from '../../shared/http/route';
import { SsoStartQuerySchema, SsoTenantPathSchema } from '../../shared/identity/sso/sso-login-schemas';

export const route = defineRoute({
  method: 'GET', path: '/v1/auth/sso/{tenant}/start', handler: 'sso-start', auth: 'public', ipRateLimited: true, tag: 'sso',
  summary: 'Begin an SP-initiated login at the tenant IdP (OIDC with PKCE, or a SAML AuthnRequest); redirects',
  request: { params: SsoTenantPathSchema, query: SsoStartQuerySchema },
  responses: { 302: redirectTo('To the identity provider'), 400: problem('validation_failed: e.g. a redirect_uri that is not on the tenant\'s allow-list'), 404: problem('not_found') },
});
