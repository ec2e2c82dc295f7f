/**
 * `PATCH /v1/users/{id}`: a user's email, username, role in a workspace or tenant
 * administration. Kept apart from `users.ts` because an email change mails the old address: only
 * this function's bundle carries the email transport.
 *
 * An email is where reset links go, so changing it is a credential change: every reset link
 * mailed before it stops working, the user's sessions end (the target's every session; an
 * admin changing their own email keeps the session that made the change, as a password change
 * does), and the old address is told, so an owner whose address was swapped learns of it.
 */
import { epochSeconds, isoNow } from '../clock';
import type { Deps } from '../deps';
import { ConflictError, ForbiddenError, PreconditionFailedError } from '../errors';
import { auditEventPut } from '../audit/audit-log';
import { emailSenderFor } from '../email/create-email-sender';
import { emailChangedEmail } from '../email/templates';
import { metricNames } from '../observability';
import { failedConditionIndexes } from '../store/client';
import { keys } from '../store/keys';
import type { UserRecord } from '../store/records';
import type { TransactItem } from '../store/table-client';
import type { Role } from '../store/identity-enums';
import type { Principal } from './principal';
import { revokeAllSessions } from './sessions';
import { toUserView, type UserView } from './user-views';
import { existingWorkspace, userInTenant } from './users';

/**
 * What an email change ends, stamped on the user record: reset links sent before now, and the
 * sign-ins before now, all of them or (changing one's own email) all but the caller's session.
 * Returns the session that goes on ('' when none does).
 */
function endCredentialsOfEmail(deps: Deps, principal: Principal, user: UserRecord): { stamps: Partial<UserRecord>; keptSession: string } {
  const now = epochSeconds(deps.clock);
  const resetLinks = { reset_links_valid_after: isoNow(deps.clock) };
  if (user.id !== principal.userId) return { stamps: { ...resetLinks, sessions_valid_after: now }, keptSession: '' };
  // A token older than the `sid` claim names no session to keep: every sign-in before now ends.
  const keptSession = (principal.credential.kind === 'access_token' ? principal.credential.sessionId : undefined) ?? '';
  return { stamps: { ...resetLinks, other_sessions_valid_after: now, kept_session_id: keptSession }, keptSession };
}

/** `alice@example.com` → `a…@example.com`: enough for the owner to recognise, not to copy. */
function maskedEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, 1)}…${email.slice(at)}`;
}

export async function updateUser(
  deps: Deps,
  principal: Principal,
  userId: string,
  input: { email?: string | undefined; username?: string | null | undefined; role?: Role | undefined; workspace_id?: string | undefined; tenant_admin?: boolean | undefined },
  sourceIp: string,
): Promise<UserView> {
  const user = await userInTenant(deps, principal, userId);
  const workspaceId = input.role !== undefined ? await existingWorkspace(deps, principal.tenantId, input.workspace_id ?? principal.workspaceId) : principal.workspaceId;
  if (input.tenant_admin === false && user.id === principal.userId) throw new ForbiddenError('You cannot remove your own tenant administration');
  const username = input.username === undefined ? user.username : (input.username?.toLowerCase() ?? undefined);
  const emailChanged = input.email !== undefined && input.email !== user.email;
  const ended = emailChanged ? endCredentialsOfEmail(deps, principal, user) : undefined;
  const updated: UserRecord = {
    ...user,
    ...ended?.stamps,
    username,
    email: input.email ?? user.email,
    roles: input.role !== undefined ? { ...user.roles, [workspaceId]: input.role } : user.roles,
    tenant_admin: input.tenant_admin ?? user.tenant_admin,
    updated_at: isoNow(deps.clock),
    version: user.version + 1,
  };
  const changed = (['email', 'username', 'tenant_admin'] as const).filter((f) => updated[f] !== user[f]) as string[];
  if (input.role !== undefined && user.roles[workspaceId] !== input.role) changed.push('role');

  const items: TransactItem[] = [
    deps.table.putItem({ ...keys.user(user.tenant_id, user.id), ...updated }, { expression: 'version = :v', values: { ':v': user.version } }),
  ];
  if (emailChanged) {
    items.push(
      deps.table.putItem({ ...keys.userEmail(user.tenant_id, updated.email), user_id: user.id }, { expression: 'attribute_not_exists(PK)' }),
      deps.table.deleteItem({ Key: keys.userEmail(user.tenant_id, user.email) }),
    );
  }
  let usernameIndex = -1;
  if (updated.username !== user.username) {
    if (updated.username !== undefined) {
      usernameIndex = items.length;
      items.push(deps.table.putItem({ ...keys.userUsername(user.tenant_id, updated.username), user_id: user.id }, { expression: 'attribute_not_exists(PK)' }));
    }
    if (user.username !== undefined) items.push(deps.table.deleteItem({ Key: keys.userUsername(user.tenant_id, user.username) }));
  }
  items.push(
    auditEventPut(deps, {
      log: 'identity', tenantId: principal.tenantId, workspaceId, actorId: principal.userId, action: 'user_updated', targetType: 'user', targetId: user.id,
      payload: { changed, ...(changed.includes('role') ? { role: input.role, workspace_id: workspaceId } : {}) }, sourceIp,
    }).item,
  );
  try {
    await deps.table.transact(items);
  } catch (error) {
    const failed = failedConditionIndexes(error);
    if (emailChanged && failed.includes(1)) throw new ConflictError('A user with this email already exists in the tenant');
    if (usernameIndex >= 0 && failed.includes(usernameIndex)) throw new ConflictError('A user with this username already exists in the tenant');
    if (failed.includes(0)) throw new PreconditionFailedError('The user changed meanwhile; try again');
    throw error;
  }
  if (ended) {
    await revokeAllSessions(deps, user.tenant_id, user.id, 'email_changed', { except: ended.keptSession });
    await tellOldAddress(deps, user, updated.email);
  }
  return toUserView(updated, workspaceId);
}

async function tellOldAddress(deps: Deps, user: UserRecord, newEmail: string): Promise<void> {
  try {
    await emailSenderFor(deps).send(emailChangedEmail({ to: user.email, newEmailMasked: maskedEmail(newEmail) }));
  } catch (error) {
    // The change is made and its sessions are ended: a transport failure is the operators' to see.
    deps.observability.logger.error('email change notice not sent', { tenant_id: user.tenant_id, user_id: user.id, error: error instanceof Error ? error.name : 'unknown' });
    deps.observability.count(metricNames.emailSendFailure);
  }
}
