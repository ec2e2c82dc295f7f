import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { readMfaPolicy } from '../shared/identity/mfa-policy';
import { routes } from './routes';

export const handler = endpoint(routes.mfaPolicyGet, async ({ input, principal, deps }) => ok(await readMfaPolicy(deps, principal, input.params.id)));
