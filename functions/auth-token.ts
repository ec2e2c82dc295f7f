import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { exchangeGrant } from '../shared/identity/grants';
import { routes } from './routes';

export const handler = endpoint(routes.token, async ({ input, deps, request }) => ok(await exchangeGrant(deps, input.body, request.sourceIp)));
