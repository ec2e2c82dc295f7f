import { listEndpoint } from '../shared/http/list-endpoint';
import { ok } from '../shared/http/responses';
import { scopeOf } from '../shared/identity/principal';
import { listRelationships } from '../shared/runs/inventory-views';
import { route } from './routes/connection-relationships-list';

export const handler = listEndpoint(route, async ({ input, principal, deps }) => {
  const page = await listRelationships(deps, scopeOf(principal), input.params.id, input.query);
  return ok({ relationships: page.items, next_cursor: page.nextCursor });
});
