import { endpoint } from '../shared/http/endpoint';
import { text } from '../shared/http/responses';
import { serviceProviderMetadata } from '../shared/identity/sso/saml-entities';
import { routes } from './routes';

export const handler = endpoint(routes.ssoMetadata, async ({ input, deps }) =>
  text(200, await serviceProviderMetadata(deps, input.params.tenant), 'application/samlmetadata+xml'),
);
