import { endpoint } from '../shared/http/endpoint';
import { noContent } from '../shared/http/responses';
import { revokePersonalAccessToken } from '../shared/identity/personal-access-tokens';
import { route } from './routes/tokens-revoke';

export const handler = endpoint(route, async ({ input, principal, deps, request }) => {
  await revokePersonalAccessToken(deps, principal, input.params.id, request.sourceIp);
  return noContent();
});
