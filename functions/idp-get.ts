import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { readIdpConfig } from '../shared/identity/sso/idp-config';
import { route } from './routes/idp-get';

export const handler = endpoint(route, async ({ input, principal, deps }) => ok(await readIdpConfig(deps, principal, input.params.id)));
