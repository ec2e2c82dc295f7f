import { endpoint } from '../shared/http/endpoint';
import { created } from '../shared/http/responses';
import { createUser } from '../shared/identity/user-creation';
import { route } from './routes/users-create';

export const handler = endpoint(route, async ({ input, principal, deps, request }) =>
  created(await createUser(deps, principal, input.body, request.sourceIp)),
);
