import { endpoint } from '../shared/http/endpoint';
import { noContent } from '../shared/http/responses';
import { unlinkFederatedIdentity } from '../shared/identity/sso/federated-identities';
import { route } from './routes/user-federated-identity-unlink';

export const handler = endpoint(route, async ({ input, principal, deps, request }) => {
  await unlinkFederatedIdentity(deps, principal, input.params.id, input.params.identity_id, request.sourceIp);
  return noContent();
});
