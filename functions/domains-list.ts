import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { listEmailDomains } from '../shared/identity/email-domains';
import { routes } from './routes';

export const handler = endpoint(routes.domainsList, async ({ input, principal, deps }) => ok({ domains: await listEmailDomains(deps, principal, input.params.id) }));
