import { TenantPathSchema } from '../../shared/http/common-schemas';
import { defineRoute, problem } from '../../shared/http/route';
import { MfaPolicySchema, UpdateMfaPolicyBodySchema } from '../../shared/identity/mfa-schemas';

export const route = defineRoute({
  method: 'PATCH', path: '/v1/tenants/{id}/mfa-policy', handler: 'mfa-policy-update', auth: 'bearer', sessionOnly: true, permission: 'mfa_policy:manage', tag: 'mfa',
  summary: 'Change the tenant MFA policy (audited; needs a recent MFA unless the policy is OFF)',
  request: { params: TenantPathSchema, body: UpdateMfaPolicyBodySchema },
  responses: { 200: { description: 'MFA policy', schema: MfaPolicySchema }, 401: problem('mfa_required'), 403: problem('forbidden') },
});
