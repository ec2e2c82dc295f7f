import { actorOf } from '../shared/connections/connection-records';
import { endpoint } from '../shared/http/endpoint';
import { accepted } from '../shared/http/responses';
import { requestRun } from '../shared/runs/run-requests';
import { routes } from './routes';

export const handler = endpoint(routes.connectionRunsCreate, async ({ input, principal, deps, request }) => {
  const { run, location } = await requestRun(deps, actorOf(principal, request.sourceIp), input.params.id);
  return accepted(run, { location });
});
