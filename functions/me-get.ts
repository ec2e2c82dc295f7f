import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { describeMe } from '../shared/identity/me';
import { route } from './routes/me-get';

export const handler = endpoint(route, async ({ principal, deps }) => ok(await describeMe(deps, principal)));
