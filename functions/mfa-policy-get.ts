import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { readMfaPolicy } from '../shared/identity/mfa-policy';
import { route } from './routes/mfa-policy-get';

export const handler = endpoint(route, async ({ input, principal, deps }) => ok(await readMfaPolicy(deps, principal, input.params.id)));
