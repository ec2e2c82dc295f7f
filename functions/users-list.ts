import { listEndpoint } from '../shared/http/list-endpoint';
import { ok } from '../shared/http/responses';
import { listUsers } from '../shared/identity/users';
import { route } from './routes/users-list';

export const handler = listEndpoint(route, async ({ input, principal, deps }) => {
  const page = await listUsers(deps, principal, input.query);
  return ok({ users: page.items, next_cursor: page.nextCursor });
});
