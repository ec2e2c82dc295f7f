import { endpoint } from '../shared/http/endpoint';
import { noContent } from '../shared/http/responses';
import { resetPassword } from '../shared/identity/password-reset';
import { routes } from './routes';

export const handler = endpoint(routes.passwordReset, async ({ input, deps, request }) => {
  await resetPassword(deps, input.body, request.sourceIp);
  return noContent();
});
