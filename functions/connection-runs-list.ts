import { getConnection } from '../shared/connections/connection-records';
import { listEndpoint } from '../shared/http/list-endpoint';
import { ok } from '../shared/http/responses';
import { scopeOf } from '../shared/identity/principal';
import { listRuns } from '../shared/runs/run-records';
import { route } from './routes/connection-runs-list';

export const handler = listEndpoint(route, async ({ input, principal, deps }) => {
  const scope = scopeOf(principal);
  await getConnection(deps, scope, input.params.id);
  const page = await listRuns(deps, scope, input.params.id, input.query);
  return ok({ runs: page.items, next_cursor: page.nextCursor });
});
