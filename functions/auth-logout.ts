import { endpoint } from '../shared/http/endpoint';
import { noContent } from '../shared/http/responses';
import { logout } from '../shared/identity/sessions';
import { routes } from './routes';

export const handler = endpoint(routes.logout, async ({ input, deps, request }) => {
  await logout(deps, input.body.refresh_token, request.sourceIp);
  return noContent();
});
