import { publicEndpoint } from '../shared/http/public-endpoint';
import { redirect } from '../shared/http/responses';
import { oidcProtocol } from '../shared/identity/sso/oidc-login';
import { samlStartProtocol } from '../shared/identity/sso/saml-login';
import { startSsoLogin } from '../shared/identity/sso/sso-login';
import { route } from './routes/sso-start';

export const handler = publicEndpoint(route, async ({ input, deps }) =>
  redirect(await startSsoLogin(deps, { ...oidcProtocol, ...samlStartProtocol }, input.params.tenant, { redirectUri: input.query.redirect_uri, state: input.query.state, codeChallenge: input.query.code_challenge })),
);
