import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { verifyEmailDomain } from '../shared/identity/email-domains';
import { route } from './routes/domains-verify';

export const handler = endpoint(route, async ({ input, principal, deps, request }) =>
  ok(await verifyEmailDomain(deps, principal, input.params.id, input.params.domain, request.sourceIp)),
);
