import { endpoint } from '../shared/http/endpoint';
import { noContent } from '../shared/http/responses';
import { changePassword } from '../shared/identity/password-change';
import { routes } from './routes';

export const handler = endpoint(routes.mePassword, async ({ input, principal, deps, request }) => {
  await changePassword(deps, principal, input.body, request.sourceIp);
  return noContent();
});
