import { actorOf } from '../shared/connections/connection-records';
import { deleteConnectionAndData } from '../shared/connections/connection-deletion';
import { endpoint } from '../shared/http/endpoint';
import { noContent } from '../shared/http/responses';
import { routes } from './routes';

export const handler = endpoint(routes.connectionsDelete, async ({ input, principal, deps, request }) => {
  await deleteConnectionAndData(deps, actorOf(principal, request.sourceIp), input.params.id, request.header('if-match'));
  return noContent();
});
