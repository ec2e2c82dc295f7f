import { TenantPathSchema } from '../../shared/http/common-schemas';
import { defineRoute, problem } from '../../shared/http/route';

export const route = defineRoute({
  method: 'DELETE', path: '/v1/tenants/{id}/idp', handler: 'idp-delete', auth: 'bearer', sessionOnly: true, permission: 'idp:manage', mfaAction: 'UPDATE_IDP_CONFIG', tag: 'sso',
  summary: 'Delete the tenant IdP configuration and release the email domains it claimed',
  request: { params: TenantPathSchema },
  responses: { 204: { description: 'Deleted' }, 404: problem('not_found') },
});
