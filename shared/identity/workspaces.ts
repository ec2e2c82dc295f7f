/**
 * Workspaces of a tenant. Creating one makes the creator its owner and admin; transferring
 * ownership is an explicit tenant-admin act, audited with the old and the new owner.
 */
import { isoNow } from '../clock';
import type { Deps } from '../deps';
import { LimitExceededError, NotFoundError, PreconditionFailedError, ValidationError } from '../errors';
import { auditEventPut } from '../audit/audit-log';
import { failedConditionIndexes } from '../store/client';
import { getUser, getWorkspace } from '../store/identity-items';
import { countLimits, countUpItem, failedConditionAt } from '../store/item-counts';
import { keys } from '../store/keys';
import type { UserRecord, WorkspaceRecord } from '../store/records';
import type { Page, PageRequest } from '../store/table-client';
import type { Principal } from './principal';

export type WorkspaceView = WorkspaceRecord;

/**
 * A new workspace, its creator its admin (an entry of the creator's `roles` map), counted
 * against the tenant's 1000 in the same transaction (`countLimits`, which also says why that
 * keeps the creator's user item far from DynamoDB's 400 KB). A tenant made before the count
 * existed counts from its next workspace on.
 */
export async function createWorkspace(deps: Deps, principal: Principal, input: { name: string }, sourceIp: string): Promise<WorkspaceView> {
  const now = isoNow(deps.clock);
  const workspace: WorkspaceRecord = { id: deps.ids.next('ws'), tenant_id: principal.tenantId, name: input.name, owner_id: principal.userId, created_at: now, updated_at: now };
  const limit = countLimits.workspacesPerTenant;
  try {
    await deps.table.transact([
      countUpItem(deps.table, keys.workspaceCount(principal.tenantId), limit),
      deps.table.putItem({ ...keys.workspace(workspace.tenant_id, workspace.id), ...workspace }, { expression: 'attribute_not_exists(PK)' }),
      deps.table.updateItem({
        Key: keys.user(principal.tenantId, principal.userId),
        UpdateExpression: 'SET #roles.#ws = :admin, updated_at = :now',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#roles': 'roles', '#ws': workspace.id },
        ExpressionAttributeValues: { ':admin': 'admin', ':now': now },
      }),
      auditEventPut(deps, { log: 'identity', tenantId: principal.tenantId, workspaceId: workspace.id, actorId: principal.userId, action: 'workspace_created', targetType: 'workspace', targetId: workspace.id, payload: { name: workspace.name }, sourceIp }).item,
    ]);
  } catch (error) {
    if (failedConditionAt(error, 0)) throw new LimitExceededError(`The tenant has ${limit} workspaces, the most it may have`);
    throw error;
  }
  return workspace;
}

/** A tenant admin sees every workspace; anyone else those they hold a role in. */
export async function listWorkspaces(deps: Deps, principal: Principal, page: PageRequest): Promise<Page<WorkspaceView>> {
  if (principal.tenantAdmin) return deps.table.queryPrefix<WorkspaceRecord>(keys.workspaces(principal.tenantId), page);
  const user = await getUser(deps, principal.tenantId, principal.userId);
  const ids = Object.keys(user?.roles ?? {}).sort().reverse();
  const start = page.cursor ? ids.indexOf(Buffer.from(page.cursor, 'base64url').toString('utf8')) + 1 : 0;
  if (page.cursor && start === 0) throw new ValidationError([{ path: 'cursor', message: 'is not a cursor of this list' }]);
  const slice = ids.slice(start, start + page.limit);
  const found = await Promise.all(slice.map((id) => getWorkspace(deps, principal.tenantId, id)));
  const items = found.filter((w): w is WorkspaceRecord => w !== undefined);
  const last = slice[slice.length - 1];
  return { items, nextCursor: start + page.limit < ids.length && last ? Buffer.from(last).toString('base64url') : null };
}

export async function transferWorkspaceOwnership(deps: Deps, principal: Principal, workspaceId: string, newOwnerId: string, sourceIp: string): Promise<WorkspaceView> {
  const workspace = await getWorkspace(deps, principal.tenantId, workspaceId);
  if (!workspace) throw new NotFoundError('workspace');
  const newOwner: UserRecord | undefined = await getUser(deps, principal.tenantId, newOwnerId);
  if (!newOwner || newOwner.status !== 'active') throw new ValidationError([{ path: 'new_owner_id', message: 'must be an active user of the tenant' }]);
  if (workspace.owner_id === newOwnerId) return workspace;
  const now = isoNow(deps.clock);
  // The owner administers the workspace they own: a new owner who is not its admin yet becomes
  // one, in the same transaction, and that role change is audited like any other.
  const previousRole = newOwner.roles[workspaceId] ?? null;
  const promoted = previousRole !== 'admin';
  try {
    await deps.table.transact([
      deps.table.updateItem({
        Key: keys.workspace(principal.tenantId, workspaceId),
        UpdateExpression: 'SET owner_id = :new, updated_at = :now',
        ConditionExpression: 'owner_id = :old',
        ExpressionAttributeValues: { ':new': newOwnerId, ':old': workspace.owner_id, ':now': now },
      }),
      deps.table.updateItem({
        Key: keys.user(principal.tenantId, newOwnerId),
        UpdateExpression: promoted ? 'SET #roles.#ws = :admin, updated_at = :now, version = version + :one' : 'SET updated_at = :now',
        // The role read above is still the role: the audit below tells the truth.
        ConditionExpression: previousRole === null ? '#status = :active AND attribute_not_exists(#roles.#ws)' : '#status = :active AND #roles.#ws = :previous',
        ExpressionAttributeNames: { '#roles': 'roles', '#ws': workspaceId, '#status': 'status' },
        ExpressionAttributeValues: { ':now': now, ':active': 'active', ...(promoted ? { ':admin': 'admin', ':one': 1 } : {}), ...(previousRole === null ? {} : { ':previous': previousRole }) },
      }),
      auditEventPut(deps, {
        log: 'identity', tenantId: principal.tenantId, workspaceId, actorId: principal.userId, action: 'workspace_owner_transferred', targetType: 'workspace', targetId: workspaceId,
        payload: { old_owner_id: workspace.owner_id, new_owner_id: newOwnerId, new_owner_role_before: previousRole }, sourceIp,
      }).item,
      ...(promoted
        ? [
            auditEventPut(deps, {
              log: 'identity', tenantId: principal.tenantId, workspaceId, actorId: principal.userId, action: 'user_updated', targetType: 'user', targetId: newOwnerId,
              payload: { changed: ['role'], role: 'admin', previous_role: previousRole, workspace_id: workspaceId, reason: 'workspace_owner_transfer' }, sourceIp,
            }).item,
          ]
        : []),
    ]);
  } catch (error) {
    const failed = failedConditionIndexes(error);
    if (failed.includes(1)) throw new ValidationError([{ path: 'new_owner_id', message: 'must be an active user of the tenant' }]);
    if (failed.includes(0)) throw new PreconditionFailedError('The workspace changed meanwhile; try again');
    throw error;
  }
  return { ...workspace, owner_id: newOwnerId, updated_at: now };
}
