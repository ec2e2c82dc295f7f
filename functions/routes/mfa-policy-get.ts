import { TenantPathSchema } from '../../shared/http/common-schemas';
import { defineRoute, problem } from '../../shared/http/route';
import { MfaPolicySchema } from '../../shared/identity/mfa-schemas';

export const route = defineRoute({
  method: 'GET', path: '/v1/tenants/{id}/mfa-policy', handler: 'mfa-policy-get', auth: 'bearer', permission: 'mfa_policy:manage', tag: 'mfa',
  summary: 'The tenant MFA policy',
  request: { params: TenantPathSchema },
  responses: { 200: { description: 'MFA policy', schema: MfaPolicySchema }, 403: problem('forbidden') },
});
