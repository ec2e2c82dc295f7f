import { endpoint } from '../shared/http/endpoint';
import { noContent } from '../shared/http/responses';
import { changePassword } from '../shared/identity/password-change';
import { route } from './routes/me-password';

export const handler = endpoint(route, async ({ input, principal, deps, request }) => {
  await changePassword(deps, principal, input.body, request.sourceIp);
  return noContent();
});
