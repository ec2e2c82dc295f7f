import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { disableUser } from '../shared/identity/users';
import { routes } from './routes';

export const handler = endpoint(routes.usersDisable, async ({ input, principal, deps, request }) =>
  ok(await disableUser(deps, principal, input.params.id, request.sourceIp)),
);
