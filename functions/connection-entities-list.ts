import { listEndpoint } from '../shared/http/list-endpoint';
import { ok } from '../shared/http/responses';
import { scopeOf } from '../shared/identity/principal';
import { listEntities } from '../shared/runs/inventory-views';
import { route } from './routes/connection-entities-list';

export const handler = listEndpoint(route, async ({ input, principal, deps }) => {
  const page = await listEntities(deps, scopeOf(principal), input.params.id, input.query);
  return ok({ entities: page.items, next_cursor: page.nextCursor });
});
