import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { listWorkspaces } from '../shared/identity/workspaces';
import { route } from './routes/workspaces-list';

export const handler = endpoint(route, async ({ input, principal, deps }) => {
  const page = await listWorkspaces(deps, principal, input.query);
  return ok({ workspaces: page.items, next_cursor: page.nextCursor });
});
