import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { updateIdpConfig } from '../shared/identity/sso/idp-config-changes';
import { route } from './routes/idp-update';

export const handler = endpoint(route, async ({ input, principal, deps, request }) =>
  ok(await updateIdpConfig(deps, principal, input.params.id, input.body, request.sourceIp)),
);
