import { endpoint } from '../shared/http/endpoint';
import { created } from '../shared/http/responses';
import { createIdpConfig } from '../shared/identity/sso/idp-config-changes';
import { route } from './routes/idp-create';

export const handler = endpoint(route, async ({ input, principal, deps, request }) =>
  created(await createIdpConfig(deps, principal, input.params.id, input.body, request.sourceIp)),
);
