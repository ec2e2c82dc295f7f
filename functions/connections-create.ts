import { actorOf } from '../shared/connections/connection-records';
import { createConnection } from '../shared/connections/connections';
import { endpoint } from '../shared/http/endpoint';
import { created } from '../shared/http/responses';
import { routes } from './routes';

export const handler = endpoint(routes.connectionsCreate, async ({ input, principal, deps, request }) => {
  const result = await createConnection(deps, actorOf(principal, request.sourceIp), input.body, request.header('idempotency-key'));
  return created(result.body, { etag: result.etag });
});
