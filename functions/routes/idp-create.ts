import { TenantPathSchema } from '../../shared/http/common-schemas';
import { defineRoute, problem } from '../../shared/http/route';
import { CreateIdpConfigBodySchema, IdpConfigSchema } from '../../shared/identity/sso/idp-config-schemas';

export const route = defineRoute({
  method: 'POST', path: '/v1/tenants/{id}/idp', handler: 'idp-create', auth: 'bearer', sessionOnly: true, permission: 'idp:manage', mfaAction: 'UPDATE_IDP_CONFIG', tag: 'sso',
  summary: 'Create the tenant IdP configuration (OIDC and/or SAML, one active)',
  request: { params: TenantPathSchema, body: CreateIdpConfigBodySchema },
  responses: { 201: { description: 'Created', schema: IdpConfigSchema }, 409: problem('conflict') },
});
