import { listEndpoint } from '../shared/http/list-endpoint';
import { ok } from '../shared/http/responses';
import { listWorkspaces } from '../shared/identity/workspaces';
import { route } from './routes/workspaces-list';

export const handler = listEndpoint(route, async ({ input, principal, deps }) => {
  const page = await listWorkspaces(deps, principal, input.query);
  return ok({ workspaces: page.items, next_cursor: page.nextCursor });
});
