import { endpoint } from '../shared/http/endpoint';
import { created } from '../shared/http/responses';
import { createWorkspace } from '../shared/identity/workspaces';
import { routes } from './routes';

export const handler = endpoint(routes.workspacesCreate, async ({ input, principal, deps, request }) =>
  created(await createWorkspace(deps, principal, input.body, request.sourceIp)),
);
