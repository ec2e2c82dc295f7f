import { IdPathSchema, PageQuerySchema } from '../../shared/http/common-schemas';
import { defineRoute, problem } from '../../shared/http/route';
import { FederatedIdentityListSchema } from '../../shared/identity/sso/federated-identity-schemas';

export const route = defineRoute({
  method: 'GET', path: '/v1/users/{id}/federated-identities', handler: 'user-federated-identities-list', auth: 'bearer', permission: 'users:manage', tag: 'users',
  summary: 'The identity provider accounts linked to a user (tenant admins; ordered by identity, not by time)',
  request: { params: IdPathSchema('usr'), query: PageQuerySchema },
  responses: { 200: { description: 'Federated identities', schema: FederatedIdentityListSchema }, 404: problem('not_found') },
});
