import { listEndpoint } from '../shared/http/list-endpoint';
import { ok } from '../shared/http/responses';
import { listTenantAuditEvents } from '../shared/identity/tenant-audit';
import { route } from './routes/tenant-audit-events-list';

export const handler = listEndpoint(route, async ({ input, principal, deps }) => {
  const page = await listTenantAuditEvents(deps, principal, input.params.id, input.query);
  return ok({ audit_events: page.items, next_cursor: page.nextCursor });
});
