import { AuditEventListSchema, AuditEventQuerySchema } from '../../shared/audit/audit-event-schemas';
import { defineRoute } from '../../shared/http/route';

export const route = defineRoute({
  method: 'GET', path: '/v1/audit-events', handler: 'audit-events-list', auth: 'bearer', permission: 'audit:read', tag: 'audit',
  summary: 'Audit events of your workspace, newest first',
  request: { query: AuditEventQuerySchema },
  responses: { 200: { description: 'Audit events', schema: AuditEventListSchema } },
});
