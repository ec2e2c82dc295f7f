import { endpoint } from '../shared/http/endpoint';
import { noContent } from '../shared/http/responses';
import { revokePersonalAccessToken } from '../shared/identity/personal-access-tokens';
import { routes } from './routes';

export const handler = endpoint(routes.tokensRevoke, async ({ input, principal, deps, request }) => {
  await revokePersonalAccessToken(deps, principal, input.params.id, request.sourceIp);
  return noContent();
});
