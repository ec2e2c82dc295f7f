import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { scopeOf } from '../shared/identity/principal';
import { listRelationships } from '../shared/runs/inventory-views';
import { routes } from './routes';

export const handler = endpoint(routes.connectionRelationshipsList, async ({ input, principal, deps }) => {
  const page = await listRelationships(deps, scopeOf(principal), input.params.id, input.query);
  return ok({ relationships: page.items, next_cursor: page.nextCursor });
});
