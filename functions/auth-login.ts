import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { login } from '../shared/identity/login';
import { routes } from './routes';

export const handler = endpoint(routes.login, async ({ input, deps, request }) => ok(await login(deps, input.body, request.sourceIp)));
