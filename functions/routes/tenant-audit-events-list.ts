import { TenantAuditEventListSchema, TenantAuditEventQuerySchema } from '../../shared/audit/audit-event-schemas';
import { TenantPathSchema } from '../../shared/http/common-schemas';
import { defineRoute, problem } from '../../shared/http/route';

export const route = defineRoute({
  method: 'GET', path: '/v1/tenants/{id}/audit-events', handler: 'tenant-audit-events-list', auth: 'bearer', permission: 'tenant_audit:read', tag: 'audit',
  summary: 'The identity audit log of your tenant, newest first (tenant admins): sign-ins, MFA, tokens, passwords, users, IdP and policy changes',
  request: { params: TenantPathSchema, query: TenantAuditEventQuerySchema },
  responses: { 200: { description: 'Identity audit events', schema: TenantAuditEventListSchema }, 403: problem('forbidden') },
});
