import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { updateUser } from '../shared/identity/user-update';
import { route } from './routes/users-update';

export const handler = endpoint(route, async ({ input, principal, deps, request }) =>
  ok(await updateUser(deps, principal, input.params.id, input.body, request.sourceIp)),
);
