/**
 * Creating a user (the only user operation that hashes a password: kept apart so the other
 * user functions do not ship the Argon2 native module).
 */
import { isoNow } from '../clock';
import type { Deps } from '../deps';
import { ConflictError } from '../errors';
import { auditEventPut } from '../audit/audit-log';
import { hashPassword } from '../crypto/passwords';
import { failedConditionIndexes } from '../store/client';
import { keys } from '../store/keys';
import type { UserRecord } from '../store/records';
import { assertAcceptablePassword } from './password-policy';
import type { Role } from '../store/identity-enums';
import type { Principal } from './principal';
import { toUserView, type UserView } from './user-views';
import { existingWorkspace } from './users';

export async function createUser(
  deps: Deps,
  principal: Principal,
  input: { email: string; username?: string | undefined; password?: string | undefined; role: Role; workspace_id?: string | undefined; tenant_admin: boolean },
  sourceIp: string,
): Promise<UserView> {
  if (input.password !== undefined) assertAcceptablePassword(input.password);
  const workspaceId = await existingWorkspace(deps, principal.tenantId, input.workspace_id ?? principal.workspaceId);
  const now = isoNow(deps.clock);
  const user: UserRecord = {
    id: deps.ids.next('usr'),
    tenant_id: principal.tenantId,
    email: input.email,
    ...(input.username !== undefined ? { username: input.username.toLowerCase() } : {}),
    status: 'active',
    ...(input.password !== undefined ? { password_hash: await hashPassword(input.password) } : {}),
    roles: { [workspaceId]: input.role },
    tenant_admin: input.tenant_admin,
    default_workspace_id: workspaceId,
    mfa_enrolled: false,
    created_at: now,
    updated_at: now,
    version: 1,
  };
  const audit = auditEventPut(deps, {
    log: 'identity', tenantId: principal.tenantId, workspaceId, actorId: principal.userId,
    action: 'user_created', targetType: 'user', targetId: user.id,
    payload: { email: user.email, username: user.username ?? null, role: input.role, workspace_id: workspaceId, tenant_admin: input.tenant_admin, local_password: input.password !== undefined }, sourceIp,
  });
  try {
    await deps.table.transact([
      deps.table.putItem({ ...keys.userEmail(user.tenant_id, user.email), user_id: user.id }, { expression: 'attribute_not_exists(PK)' }),
      deps.table.putItem({ ...keys.user(user.tenant_id, user.id), ...user }, { expression: 'attribute_not_exists(PK)' }),
      audit.item,
      ...(user.username !== undefined ? [deps.table.putItem({ ...keys.userUsername(user.tenant_id, user.username), user_id: user.id }, { expression: 'attribute_not_exists(PK)' })] : []),
    ]);
  } catch (error) {
    const failed = failedConditionIndexes(error);
    if (failed.includes(0)) throw new ConflictError('A user with this email already exists in the tenant');
    if (failed.includes(3)) throw new ConflictError('A user with this username already exists in the tenant');
    throw error;
  }
  return toUserView(user, workspaceId);
}
