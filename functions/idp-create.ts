import { endpoint } from '../shared/http/endpoint';
import { created } from '../shared/http/responses';
import { createIdpConfig } from '../shared/identity/sso/idp-config-changes';
import { routes } from './routes';

export const handler = endpoint(routes.idpCreate, async ({ input, principal, deps, request }) =>
  created(await createIdpConfig(deps, principal, input.params.id, input.body, request.sourceIp)),
);
