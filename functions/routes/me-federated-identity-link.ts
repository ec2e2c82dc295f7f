import { defineRoute, problem } from '../../shared/http/route';
import { FederatedIdentityLinkBodySchema, FederatedIdentityLinkResponseSchema } from '../../shared/identity/sso/federated-identity-schemas';

export const route = defineRoute({
  method: 'POST', path: '/v1/me/federated-identities/link', handler: 'me-federated-identity-link', auth: 'bearer', sessionOnly: true, ipRateLimited: true, tag: 'users',
  summary: 'Begin linking an identity provider account to your account: an SSO login at the tenant IdP whose callback links instead of signing in',
  request: { body: FederatedIdentityLinkBodySchema },
  responses: {
    200: { description: 'Where to send the browser', schema: FederatedIdentityLinkResponseSchema },
    400: problem('validation_failed: e.g. a redirect_uri that is not on the tenant\'s list of allowed redirect URIs'),
    403: problem('forbidden: a personal access token cannot link identities'),
    404: problem('not_found: the tenant has no active single sign-on'),
  },
});
