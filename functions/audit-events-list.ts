import { listAuditEvents } from '../shared/connections/catalog-views';
import { listEndpoint } from '../shared/http/list-endpoint';
import { ok } from '../shared/http/responses';
import { scopeOf } from '../shared/identity/principal';
import { route } from './routes/audit-events-list';

export const handler = listEndpoint(route, async ({ input, principal, deps }) => {
  const page = await listAuditEvents(deps, scopeOf(principal), input.query);
  return ok({ audit_events: page.items, next_cursor: page.nextCursor });
});
