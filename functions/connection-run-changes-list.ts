import { listEndpoint } from '../shared/http/list-endpoint';
import { ok } from '../shared/http/responses';
import { scopeOf } from '../shared/identity/principal';
import { listRunChanges } from '../shared/runs/inventory-views';
import { route } from './routes/connection-run-changes-list';

export const handler = listEndpoint(route, async ({ input, principal, deps }) => {
  const page = await listRunChanges(deps, scopeOf(principal), input.params.id, input.params.run_id, input.query);
  return ok({ changes: page.items, next_cursor: page.nextCursor });
});
