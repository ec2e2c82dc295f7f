import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { listWorkspaces } from '../shared/identity/workspaces';
import { routes } from './routes';

export const handler = endpoint(routes.workspacesList, async ({ input, principal, deps }) => {
  const page = await listWorkspaces(deps, principal, input.query);
  return ok({ workspaces: page.items, next_cursor: page.nextCursor });
});
