import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { enableUser } from '../shared/identity/users';
import { route } from './routes/users-enable';

export const handler = endpoint(route, async ({ input, principal, deps, request }) =>
  ok(await enableUser(deps, principal, input.params.id, request.sourceIp)),
);
