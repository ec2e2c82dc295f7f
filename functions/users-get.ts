import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { readUser } from '../shared/identity/users';
import { route } from './routes/users-get';

export const handler = endpoint(route, async ({ input, principal, deps }) => ok(await readUser(deps, principal, input.params.id)));
