import { actorOf, etagOf, toConnectionView } from '../shared/connections/connection-records';
import { updateConnection } from '../shared/connections/connections';
import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { route } from './routes/connections-update';

export const handler = endpoint(route, async ({ input, principal, deps, request }) => {
  const record = await updateConnection(deps, actorOf(principal, request.sourceIp), input.params.id, input.body, request.header('if-match'));
  return ok(toConnectionView(record), { etag: etagOf(record) });
});
