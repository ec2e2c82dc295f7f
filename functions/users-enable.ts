import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { enableUser } from '../shared/identity/users';
import { routes } from './routes';

export const handler = endpoint(routes.usersEnable, async ({ input, principal, deps, request }) =>
  ok(await enableUser(deps, principal, input.params.id, request.sourceIp)),
);
