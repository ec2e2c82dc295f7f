import { endpoint } from '../shared/http/endpoint';
import { accepted } from '../shared/http/responses';
import { requestPasswordReset } from '../shared/identity/password-forgot';
import { routes } from './routes';

export const handler = endpoint(routes.passwordForgot, async ({ input, deps, request }) => {
  await requestPasswordReset(deps, input.body, request.sourceIp);
  return accepted();
});
