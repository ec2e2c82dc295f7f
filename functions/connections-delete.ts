import { actorOf } from '../shared/connections/connection-records';
import { deleteConnectionAndData } from '../shared/connections/connection-deletion';
import { endpoint } from '../shared/http/endpoint';
import { noContent } from '../shared/http/responses';
import { route } from './routes/connections-delete';

export const handler = endpoint(route, async ({ input, principal, deps, request }) => {
  await deleteConnectionAndData(deps, actorOf(principal, request.sourceIp), input.params.id, request.header('if-match'));
  return noContent();
});
