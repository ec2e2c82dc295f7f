import { publicEndpoint } from '../shared/http/public-endpoint';
import { redirect } from '../shared/http/responses';
import { oidcProtocol } from '../shared/identity/sso/oidc-login';
import { samlCompleteProtocol } from '../shared/identity/sso/saml-response';
import { completeSsoLogin } from '../shared/identity/sso/sso-login';
import { route } from './routes/sso-callback-post';

export const handler = publicEndpoint(route, async ({ input, deps, request }) =>
  redirect(await completeSsoLogin(deps, { ...oidcProtocol, ...samlCompleteProtocol }, input.params.tenant, input.body, request.sourceIp)),
);
