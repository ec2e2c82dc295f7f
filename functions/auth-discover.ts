import { publicEndpoint } from '../shared/http/public-endpoint';
import { ok } from '../shared/http/responses';
import { discoverLogin } from '../shared/identity/sso/discovery';
import { route } from './routes/auth-discover';

export const handler = publicEndpoint(route, async ({ input, deps }) => ok(await discoverLogin(deps, input.query.email)));
