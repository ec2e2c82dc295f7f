import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { listEmailDomains } from '../shared/identity/email-domains';
import { route } from './routes/domains-list';

export const handler = endpoint(route, async ({ input, principal, deps }) => ok({ domains: await listEmailDomains(deps, principal, input.params.id) }));
