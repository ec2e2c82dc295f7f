import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { discoverLogin } from '../shared/identity/sso/discovery';
import { routes } from './routes';

export const handler = endpoint(routes.discover, async ({ input, deps }) => ok(await discoverLogin(deps, input.query.email)));
