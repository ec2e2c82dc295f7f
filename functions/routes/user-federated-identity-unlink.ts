import { defineRoute, problem } from '../../shared/http/route';
import { UserFederatedIdentityPathSchema } from '../../shared/identity/sso/federated-identity-schemas';

export const route = defineRoute({
  method: 'DELETE', path: '/v1/users/{id}/federated-identities/{identity_id}', handler: 'user-federated-identity-unlink', auth: 'bearer', permission: 'users:manage', mfaAction: 'MANAGE_USERS', tag: 'users',
  summary: 'Unlink an identity provider account from a user (audited); it no longer signs in as that user',
  request: { params: UserFederatedIdentityPathSchema },
  responses: { 204: { description: 'Unlinked' }, 404: problem('not_found') },
});
