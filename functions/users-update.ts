import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { updateUser } from '../shared/identity/users';
import { routes } from './routes';

export const handler = endpoint(routes.usersUpdate, async ({ input, principal, deps, request }) =>
  ok(await updateUser(deps, principal, input.params.id, input.body, request.sourceIp)),
);
