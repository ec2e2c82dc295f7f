import { getConnection } from '../shared/connections/connection-records';
import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { scopeOf } from '../shared/identity/principal';
import { getRun, toRunView } from '../shared/runs/run-records';
import { route } from './routes/connection-runs-get';

export const handler = endpoint(route, async ({ input, principal, deps }) => {
  const scope = scopeOf(principal);
  await getConnection(deps, scope, input.params.id);
  return ok(toRunView(await getRun(deps, scope, input.params.id, input.params.run_id)));
});
