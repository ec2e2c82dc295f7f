import { endpoint } from '../shared/http/endpoint';
import { noContent } from '../shared/http/responses';
import { deleteIdpConfig } from '../shared/identity/sso/idp-config';
import { route } from './routes/idp-delete';

export const handler = endpoint(route, async ({ input, principal, deps, request }) => {
  await deleteIdpConfig(deps, principal, input.params.id, request.sourceIp);
  return noContent();
});
