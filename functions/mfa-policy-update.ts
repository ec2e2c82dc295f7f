import { endpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { updateMfaPolicy } from '../shared/identity/mfa-policy';
import { route } from './routes/mfa-policy-update';

export const handler = endpoint(route, async ({ input, principal, deps, request }) => ok(await updateMfaPolicy(deps, principal, input.params.id, input.body, request.sourceIp)));
