import { publicEndpoint } from '../shared/http/public-endpoint';
import { noContent } from '../shared/http/responses';
import { logout } from '../shared/identity/sessions';
import { route } from './routes/auth-logout';

export const handler = publicEndpoint(route, async ({ input, deps, request }) => {
  await logout(deps, input.body.refresh_token, request.sourceIp);
  return noContent();
});
