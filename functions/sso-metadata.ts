import { publicEndpoint } from '../shared/http/public-endpoint';
import { text } from '../shared/http/responses';
import { serviceProviderMetadata } from '../shared/identity/sso/saml-sp-metadata';
import { route } from './routes/sso-metadata';

export const handler = publicEndpoint(route, async ({ input, deps }) =>
  text(200, await serviceProviderMetadata(deps, input.params.tenant), 'application/samlmetadata+xml'),
);
