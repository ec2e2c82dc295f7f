import { publicEndpoint } from '../shared/http/public-endpoint';
import { accepted } from '../shared/http/responses';
import { requestPasswordReset } from '../shared/identity/password-forgot';
import { route } from './routes/auth-password-forgot';

export const handler = publicEndpoint(route, async ({ input, deps, request }) => {
  await requestPasswordReset(deps, input.body, request.sourceIp);
  return accepted();
});
