import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { listUsers } from '../shared/identity/users';
import { routes } from './routes';

export const handler = endpoint(routes.usersList, async ({ input, principal, deps }) => {
  const page = await listUsers(deps, principal, input.query);
  return ok({ users: page.items, next_cursor: page.nextCursor });
});
