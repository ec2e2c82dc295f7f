import { publicEndpoint } from '../shared/http/public-endpoint';
import { ok } from '../shared/http/responses';
import { exchangeGrant } from '../shared/identity/grants';
import { route } from './routes/auth-token';

export const handler = publicEndpoint(route, async ({ input, deps, request }) => ok(await exchangeGrant(deps, input.body, request.sourceIp)));
