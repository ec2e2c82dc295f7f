import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { transferWorkspaceOwnership } from '../shared/identity/workspaces';
import { route } from './routes/workspaces-owner-transfer';

export const handler = endpoint(route, async ({ input, principal, deps, request }) =>
  ok(await transferWorkspaceOwnership(deps, principal, input.params.id, input.body.new_owner_id, request.sourceIp)),
);
