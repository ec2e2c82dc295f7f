import { endpoint } from '../shared/http/endpoint';
import { noContent } from '../shared/http/responses';
import { unlinkFederatedIdentity } from '../shared/identity/sso/federated-identities';
import { routes } from './routes';

export const handler = endpoint(routes.userFederatedIdentityUnlink, async ({ input, principal, deps, request }) => {
  await unlinkFederatedIdentity(deps, principal, input.params.id, input.params.identity_id, request.sourceIp);
  return noContent();
});
