import { actorOf } from '../shared/connections/connection-records';
import { createConnection } from '../shared/connections/connections';
import { endpoint } from '../shared/http/endpoint';
import { created } from '../shared/http/responses';
import { route } from './routes/connections-create';

export const handler = endpoint(route, async ({ input, principal, deps, request }) => {
  const result = await createConnection(deps, actorOf(principal, request.sourceIp), input.body, request.header('idempotency-key'));
  return created(result.body, { etag: result.etag });
});
