import { listEndpoint } from '../shared/http/list-endpoint';
import { ok } from '../shared/http/responses';
import { listFederatedIdentities } from '../shared/identity/sso/federated-identities';
import { route } from './routes/user-federated-identities-list';

export const handler = listEndpoint(route, async ({ input, principal, deps }) => {
  const page = await listFederatedIdentities(deps, principal, input.params.id, input.query);
  return ok({ federated_identities: page.items, next_cursor: page.nextCursor });
});
