import { listPeople } from '../shared/access/people-views';
import { listEndpoint } from '../shared/http/list-endpoint';
import { ok } from '../shared/http/responses';
import { scopeOf } from '../shared/identity/principal';
import { route } from './routes/people-list';

export const handler = listEndpoint(route, async ({ input, principal, deps }) => {
  const page = await listPeople(deps, scopeOf(principal), input.query);
  return ok({ people: page.items, next_cursor: page.nextCursor });
});
