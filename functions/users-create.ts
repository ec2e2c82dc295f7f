import { endpoint } from '../shared/http/endpoint';
import { created } from '../shared/http/responses';
import { createUser } from '../shared/identity/user-creation';
import { routes } from './routes';

export const handler = endpoint(routes.usersCreate, async ({ input, principal, deps, request }) =>
  created(await createUser(deps, principal, input.body, request.sourceIp)),
);
