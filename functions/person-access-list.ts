import { personAccess } from '../shared/access/access-views';
import { personRead } from '../shared/access/people-views';
import { listReadEndpoint } from '../shared/http/list-endpoint';
import { ok } from '../shared/http/responses';
import { scopeOf } from '../shared/identity/principal';
import { route } from './routes/person-access-list';

export const handler = listReadEndpoint(route, ({ caller, params }) => personRead(caller, params.person_id), async ({ input, principal, deps, resource }) => {
  const page = await personAccess(deps, scopeOf(principal), resource, input.query);
  return ok({ access: page.items, next_cursor: page.nextCursor });
});
