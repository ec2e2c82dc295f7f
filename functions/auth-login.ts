import { publicEndpoint } from '../shared/http/public-endpoint';
import { ok } from '../shared/http/responses';
import { login } from '../shared/identity/login';
import { route } from './routes/auth-login';

export const handler = publicEndpoint(route, async ({ input, deps, request }) => ok(await login(deps, input.body, request.sourceIp)));
