import { TenantPathSchema } from '../../shared/http/common-schemas';
import { defineRoute, problem } from '../../shared/http/route';
import { IdpConfigSchema } from '../../shared/identity/sso/idp-config-schemas';

export const route = defineRoute({
  method: 'GET', path: '/v1/tenants/{id}/idp', handler: 'idp-get', auth: 'bearer', permission: 'idp:manage', tag: 'sso',
  summary: 'Read the tenant IdP configuration (the client secret is write-only)',
  request: { params: TenantPathSchema },
  responses: { 200: { description: 'IdP configuration', schema: IdpConfigSchema }, 404: problem('not_found') },
});
