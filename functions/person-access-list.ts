import { personAccess } from '../shared/access/access-views';
import { listEndpoint } from '../shared/http/list-endpoint';
import { ok } from '../shared/http/responses';
import { scopeOf } from '../shared/identity/principal';
import { route } from './routes/person-access-list';

export const handler = listEndpoint(route, async ({ input, principal, deps }) => {
  const page = await personAccess(deps, scopeOf(principal), input.params.person_id, input.query);
  return ok({ access: page.items, next_cursor: page.nextCursor });
});
