import { listConnectionRuns } from '../shared/connections/connection-records';
import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { scopeOf } from '../shared/identity/principal';
import { routes } from './routes';

export const handler = endpoint(routes.connectionRunsList, async ({ input, principal, deps }) => {
  const page = await listConnectionRuns(deps, scopeOf(principal), input.params.id, input.query);
  return ok({ runs: page.items, next_cursor: page.nextCursor });
});
