import { endpoint } from '../shared/http/endpoint';
import { noContent } from '../shared/http/responses';
import { removeEmailDomain } from '../shared/identity/email-domains';
import { route } from './routes/domains-delete';

export const handler = endpoint(route, async ({ input, principal, deps, request }) => {
  await removeEmailDomain(deps, principal, input.params.id, input.params.domain, request.sourceIp);
  return noContent();
});
