import { endpoint } from '../shared/http/endpoint';
import { created } from '../shared/http/responses';
import { createWorkspace } from '../shared/identity/workspaces';
import { route } from './routes/workspaces-create';

export const handler = endpoint(route, async ({ input, principal, deps, request }) =>
  created(await createWorkspace(deps, principal, input.body, request.sourceIp)),
);
