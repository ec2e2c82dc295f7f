import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { describeMe } from '../shared/identity/me';
import { routes } from './routes';

export const handler = endpoint(routes.me, async ({ principal, deps }) => ok(await describeMe(deps, principal)));
