import { publicEndpoint } from '../shared/http/public-endpoint';
import { noContent } from '../shared/http/responses';
import { resetPassword } from '../shared/identity/password-reset';
import { route } from './routes/auth-password-reset';

export const handler = publicEndpoint(route, async ({ input, deps, request }) => {
  await resetPassword(deps, input.body, request.sourceIp);
  return noContent();
});
