import { TenantPathSchema } from '../../shared/http/common-schemas';
import { defineRoute, problem } from '../../shared/http/route';
import { IdpConfigSchema, UpdateIdpConfigBodySchema } from '../../shared/identity/sso/idp-config-schemas';

export const route = defineRoute({
  method: 'PATCH', path: '/v1/tenants/{id}/idp', handler: 'idp-update', auth: 'bearer', sessionOnly: true, permission: 'idp:manage', mfaAction: 'UPDATE_IDP_CONFIG', tag: 'sso',
  summary: 'Change the tenant IdP configuration; omitting client_secret keeps it',
  request: { params: TenantPathSchema, body: UpdateIdpConfigBodySchema },
  responses: { 200: { description: 'IdP configuration', schema: IdpConfigSchema }, 404: problem('not_found'), 409: problem('conflict') },
});
