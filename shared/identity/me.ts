/** GET /v1/me: the caller as the credential sees them. */
import type { Deps } from '../deps';
import { UnauthenticatedError } from '../errors';
import { getUser } from '../store/identity-items';
import type { Principal } from './principal';

export async function describeMe(deps: Deps, principal: Principal) {
  const user = await getUser(deps, principal.tenantId, principal.userId);
  if (!user) throw new UnauthenticatedError();
  return {
    id: user.id,
    tenant_id: user.tenant_id,
    email: user.email,
    status: user.status,
    workspace_id: principal.workspaceId,
    role: principal.role ?? null,
    tenant_admin: user.tenant_admin,
    permissions: principal.permissions,
    mfa_enrolled: user.mfa_enrolled,
  };
}
