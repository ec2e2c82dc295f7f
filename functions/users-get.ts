import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { readUser } from '../shared/identity/users';
import { routes } from './routes';

export const handler = endpoint(routes.usersGet, async ({ input, principal, deps }) => ok(await readUser(deps, principal, input.params.id)));
