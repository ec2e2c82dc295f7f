import { listAccessChanges } from '../shared/access/access-change-views';
import { listEndpoint } from '../shared/http/list-endpoint';
import { ok } from '../shared/http/responses';
import { scopeOf } from '../shared/identity/principal';
import { route } from './routes/access-changes-list';

export const handler = listEndpoint(route, async ({ input, principal, deps }) => {
  const page = await listAccessChanges(deps, scopeOf(principal), input.query);
  return ok({ access_changes: page.items, next_cursor: page.nextCursor });
});
