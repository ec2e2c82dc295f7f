import { PageQuerySchema } from '../../shared/http/common-schemas';
import { defineRoute } from '../../shared/http/route';
import { FederatedIdentityListSchema } from '../../shared/identity/sso/federated-identity-schemas';

export const route = defineRoute({
  method: 'GET', path: '/v1/me/federated-identities', handler: 'me-federated-identities-list', auth: 'bearer', tag: 'users',
  summary: 'The identity provider accounts linked to your account (ordered by identity, not by time)',
  request: { query: PageQuerySchema },
  responses: { 200: { description: 'Federated identities', schema: FederatedIdentityListSchema } },
});
