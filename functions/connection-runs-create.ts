import { actorOf } from '../shared/connections/connection-records';
import { endpoint } from '../shared/http/endpoint';
import { accepted } from '../shared/http/responses';
import { requestRun } from '../shared/runs/run-requests';
import { route } from './routes/connection-runs-create';

export const handler = endpoint(route, async ({ input, principal, deps, request }) => {
  const { run, location } = await requestRun(deps, actorOf(principal, request.sourceIp), input.params.id, { confirmRemovals: input.body.confirm_removals === true });
  return accepted(run, { location });
});
