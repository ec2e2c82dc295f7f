import { endpoint } from '../shared/http/endpoint';
import { noContent } from '../shared/http/responses';
import { removeEmailDomain } from '../shared/identity/email-domains';
import { routes } from './routes';

export const handler = endpoint(routes.domainsDelete, async ({ input, principal, deps, request }) => {
  await removeEmailDomain(deps, principal, input.params.id, input.params.domain, request.sourceIp);
  return noContent();
});
