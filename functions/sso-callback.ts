import { publicEndpoint } from '../shared/http/public-endpoint';
import { redirect } from '../shared/http/responses';
import { oidcProtocol } from '../shared/identity/sso/oidc-login';
import { completeSsoLogin } from '../shared/identity/sso/sso-login';
import { route } from './routes/sso-callback';

export const handler = publicEndpoint(route, async ({ input, deps, request }) =>
  redirect(await completeSsoLogin(deps, oidcProtocol, input.params.tenant, input.query, request.sourceIp)),
);
