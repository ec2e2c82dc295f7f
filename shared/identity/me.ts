/** GET /v1/me: the caller as the credential sees them. */
import { UnauthenticatedError } from '../errors';
import { keys } from '../store/keys';
import type { UserRecord } from '../store/records';
import type { ItemRead } from '../store/table-client';
import type { Principal } from './principal';

/**
 * The caller's own user record. Authentication reads the same item, so on `GET /v1/me` both are
 * one read (`readEndpoint`); gone since authentication (deleted in between) is 401.
 */
export const ownUserRead = (caller: { tenantId: string; userId: string }): ItemRead<UserRecord> => ({
  key: keys.user(caller.tenantId, caller.userId),
  found: (item) => {
    if (!item) throw new UnauthenticatedError();
    return item as unknown as UserRecord;
  },
});

export function describeMe(principal: Principal, user: UserRecord) {
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
