/**
 * User administration within the caller's tenant (changing one: `user-update.ts`). The tenant
 * always comes from the credential; a user of another tenant is simply not found.
 */
import { epochSeconds, isoNow } from '../clock';
import type { Deps } from '../deps';
import { ForbiddenError, NotFoundError } from '../errors';
import { auditEventPut } from '../audit/audit-log';
import { isConditionFailure } from '../store/client';
import { getWorkspace } from '../store/identity-items';
import { keys } from '../store/keys';
import type { UserRecord } from '../store/records';
import type { ItemRead, Page, PageRequest } from '../store/table-client';
import type { Principal } from './principal';
import { revokeAllSessions } from './sessions';
import { toUserView, type UserView } from './user-views';

export async function existingWorkspace(deps: Deps, tenantId: string, workspaceId: string): Promise<string> {
  if (!(await getWorkspace(deps, tenantId, workspaceId))) throw new NotFoundError('workspace');
  return workspaceId;
}

/** A user of the caller's tenant, or 404: another tenant's is simply not under this key. */
export const userInTenantRead = (scope: { tenantId: string }, userId: string): ItemRead<UserRecord> => ({
  key: keys.user(scope.tenantId, userId),
  found: (item) => {
    if (!item) throw new NotFoundError('user');
    return item as unknown as UserRecord;
  },
});

export const userInTenant = (deps: Deps, principal: Principal, userId: string): Promise<UserRecord> => deps.table.read(userInTenantRead(principal, userId));

export async function listUsers(deps: Deps, principal: Principal, page: PageRequest): Promise<Page<UserView>> {
  const result = await deps.table.queryPrefix<UserRecord>(keys.users(principal.tenantId), page, { newestFirst: true });
  return { items: result.items.map((u) => toUserView(u, principal.workspaceId)), nextCursor: result.nextCursor };
}

/**
 * Enables a disabled user again. Nothing from before comes back: the sessions were revoked at
 * the disable, and access tokens and PATs issued before the enable stay refused, so the user
 * signs in again and makes new tokens.
 */
export async function enableUser(deps: Deps, principal: Principal, userId: string, sourceIp: string): Promise<UserView> {
  const user = await userInTenant(deps, principal, userId);
  if (user.status === 'active') return toUserView(user, principal.workspaceId);
  const now = isoNow(deps.clock);
  try {
    await deps.table.transact([
      deps.table.updateItem({
        Key: keys.user(user.tenant_id, user.id),
        UpdateExpression: 'SET #status = :active, updated_at = :now, sessions_valid_after = :epoch, pats_valid_after = :now, version = version + :one',
        ConditionExpression: 'attribute_exists(PK) AND #status = :disabled',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':active': 'active', ':disabled': 'disabled', ':now': now, ':epoch': epochSeconds(deps.clock), ':one': 1 },
      }),
      auditEventPut(deps, { log: 'identity', tenantId: principal.tenantId, workspaceId: principal.workspaceId, actorId: principal.userId, action: 'user_enabled', targetType: 'user', targetId: user.id, sourceIp }).item,
    ]);
  } catch (error) {
    // Deleted, or enabled by someone else meanwhile: read what is there now.
    if (!isConditionFailure(error)) throw error;
    return toUserView(await userInTenant(deps, principal, userId), principal.workspaceId);
  }
  return toUserView({ ...user, status: 'active', updated_at: now }, principal.workspaceId);
}

export async function disableUser(deps: Deps, principal: Principal, userId: string, sourceIp: string): Promise<UserView> {
  const user = await userInTenant(deps, principal, userId);
  if (user.id === principal.userId) throw new ForbiddenError('You cannot disable yourself');
  const now = isoNow(deps.clock);
  if (user.status !== 'disabled') {
    try {
      await deps.table.transact([
        deps.table.updateItem({
          Key: keys.user(user.tenant_id, user.id),
          UpdateExpression: 'SET #status = :disabled, updated_at = :now, version = version + :one',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':disabled': 'disabled', ':now': now, ':one': 1 },
        }),
        auditEventPut(deps, { log: 'identity', tenantId: principal.tenantId, workspaceId: principal.workspaceId, actorId: principal.userId, action: 'user_disabled', targetType: 'user', targetId: user.id, sourceIp }).item,
      ]);
    } catch (error) {
      if (isConditionFailure(error)) throw new NotFoundError('user');
      throw error;
    }
    // Access tokens and PATs die with the status check on every request; sessions are revoked too.
    await revokeAllSessions(deps, user.tenant_id, user.id, 'user_disabled');
  }
  return toUserView({ ...user, status: 'disabled', updated_at: now }, principal.workspaceId);
}
