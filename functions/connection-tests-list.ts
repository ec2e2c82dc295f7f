import { listConnectionTests } from '../shared/connections/connection-records';
import { listEndpoint } from '../shared/http/list-endpoint';
import { ok } from '../shared/http/responses';
import { scopeOf } from '../shared/identity/principal';
import { route } from './routes/connection-tests-list';

export const handler = listEndpoint(route, async ({ input, principal, deps }) => {
  const page = await listConnectionTests(deps, scopeOf(principal), input.params.id, input.query);
  return ok({ tests: page.items, next_cursor: page.nextCursor });
});
