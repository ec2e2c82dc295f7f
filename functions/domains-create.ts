import { endpoint } from '../shared/http/endpoint';
import { created } from '../shared/http/responses';
import { addEmailDomain } from '../shared/identity/email-domains';
import { route } from './routes/domains-create';

export const handler = endpoint(route, async ({ input, principal, deps, request }) =>
  created(await addEmailDomain(deps, principal, input.params.id, input.body.domain, request.sourceIp)),
);
