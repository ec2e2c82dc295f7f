import { readEndpoint } from '../shared/http/endpoint';
import { ok } from '../shared/http/responses';
import { mfaPolicyRead, ownTenantMfaPolicy } from '../shared/identity/mfa-policy';
import { route } from './routes/mfa-policy-get';

export const handler = readEndpoint(route, ({ caller }) => mfaPolicyRead(caller.tenantId), ({ input, principal, resource }) => ok(ownTenantMfaPolicy(principal, input.params.id, resource)));
