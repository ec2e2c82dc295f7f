import { endpoint } from '../shared/http/endpoint';
import { created } from '../shared/http/responses';
import { addEmailDomain } from '../shared/identity/email-domains';
import { routes } from './routes';

export const handler = endpoint(routes.domainsCreate, async ({ input, principal, deps, request }) =>
  created(await addEmailDomain(deps, principal, input.params.id, input.body.domain, request.sourceIp)),
);
