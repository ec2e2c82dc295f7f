import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { disableUser } from '../shared/identity/users';
import { route } from './routes/users-disable';

export const handler = endpoint(route, async ({ input, principal, deps, request }) =>
  ok(await disableUser(deps, principal, input.params.id, request.sourceIp)),
);
