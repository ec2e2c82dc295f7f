import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { oidcProtocol } from '../shared/identity/sso/oidc-login';
import { samlStartProtocol } from '../shared/identity/sso/saml-login';
import { startFederatedIdentityLink } from '../shared/identity/sso/sso-login';
import { route } from './routes/me-federated-identity-link';

export const handler = endpoint(route, async ({ input, principal, deps }) =>
  ok(await startFederatedIdentityLink(deps, { ...oidcProtocol, ...samlStartProtocol }, principal, { redirectUri: input.body.redirect_uri, state: input.body.state })),
);
