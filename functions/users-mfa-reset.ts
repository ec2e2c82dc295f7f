import { endpoint } from '../shared/http/endpoint';
import { noContent } from '../shared/http/responses';
import { resetUserMfa } from '../shared/identity/mfa-reset';
import { route } from './routes/users-mfa-reset';

export const handler = endpoint(route, async ({ input, principal, deps, request }) => {
  await resetUserMfa(deps, principal, input.params.id, request.sourceIp);
  return noContent();
});
