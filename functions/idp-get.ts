import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { readIdpConfig } from '../shared/identity/sso/idp-config';
import { routes } from './routes';

export const handler = endpoint(routes.idpGet, async ({ input, principal, deps }) => ok(await readIdpConfig(deps, principal, input.params.id)));
