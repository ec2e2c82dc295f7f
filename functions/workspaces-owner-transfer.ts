import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { transferWorkspaceOwnership } from '../shared/identity/workspaces';
import { routes } from './routes';

export const handler = endpoint(routes.workspacesOwnerTransfer, async ({ input, principal, deps, request }) =>
  ok(await transferWorkspaceOwnership(deps, principal, input.params.id, input.body.new_owner_id, request.sourceIp)),
);
