import { testConnection } from '../shared/connections/connection-tests';
import { actorOf } from '../shared/connections/connection-records';
import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { route } from './routes/connections-test';

export const handler = endpoint(route, async ({ input, principal, deps, request }) =>
  ok(await testConnection(deps, actorOf(principal, request.sourceIp), input.params.id, request)),
);
