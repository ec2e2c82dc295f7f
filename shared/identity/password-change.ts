/**
 * `POST /v1/me/password`: a signed-in user changes their password by giving the current one
 * (checked under the same per-account limiter as login). The route table names the step-up
 * action `CHANGE_PASSWORD`, so a tenant policy listing it also asks for a recent MFA.
 * A change ends every other session of the user (refresh families and the access tokens of
 * sign-ins before it) and keeps the caller's; personal access tokens are left alone (they are
 * automation credentials: disabling the user ends them).
 */
import { epochSeconds, isoNow } from '../clock';
import type { Deps } from '../deps';
import { InvalidCredentialsError, UnauthenticatedError } from '../errors';
import { auditEventPut, recordAuditEvent } from '../audit/audit-log';
import { burnPasswordVerification, hashPassword, verifyPassword } from '../crypto/passwords';
import { isConditionFailure } from '../store/client';
import { getUser } from '../store/identity-items';
import { keys } from '../store/keys';
import type { UserRecord } from '../store/records';
import { assertAcceptablePassword } from './password-policy';
import type { Principal } from './principal';
import { reserveCredentialAttempt } from './rate-limits';
import { revokeAllSessions } from './sessions';

/**
 * The user's new password hash, written only while the user is still active (and, for a
 * change, only over the hash the current password was checked against; for a reset, only
 * while no password was set, and the email not changed, since its link was sent). Every password set stamps
 * `password_set_at`, which ends every reset link sent before it. A reset also ends every
 * sign-in before it: access tokens whose `auth_time` is older are refused; a change
 * (`keepSession`) ends every sign-in before it but the caller's session.
 */
export function passwordUpdateItem(
  deps: Deps,
  user: UserRecord,
  passwordHash: string,
  options: { expectedHash?: string | undefined; endSessions?: boolean; resetLinkSentAt?: string; keepSession?: string } = {},
) {
  const { expectedHash, endSessions = false, resetLinkSentAt, keepSession } = options;
  const conditions = ['#status = :active'];
  if (expectedHash !== undefined) conditions.push('password_hash = :expected');
  if (resetLinkSentAt !== undefined) {
    conditions.push('(attribute_not_exists(password_set_at) OR password_set_at < :sent)', '(attribute_not_exists(reset_links_valid_after) OR reset_links_valid_after < :sent)');
  }
  const now = isoNow(deps.clock);
  return deps.table.updateItem({
    Key: keys.user(user.tenant_id, user.id),
    UpdateExpression: `SET password_hash = :hash, password_set_at = :now, updated_at = :now, version = version + :one${endSessions ? ', sessions_valid_after = :epoch' : ''}${keepSession !== undefined ? ', other_sessions_valid_after = :epoch, kept_session_id = :kept' : ''}`,
    ConditionExpression: conditions.join(' AND '),
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':hash': passwordHash,
      ':now': now,
      ':one': 1,
      ':active': 'active',
      ...(expectedHash === undefined ? {} : { ':expected': expectedHash }),
      ...(resetLinkSentAt === undefined ? {} : { ':sent': resetLinkSentAt }),
      ...(endSessions || keepSession !== undefined ? { ':epoch': epochSeconds(deps.clock) } : {}),
      ...(keepSession !== undefined ? { ':kept': keepSession } : {}),
    },
  });
}

/**
 * A signed-in user proves they own the account by its current password (a password change, the
 * first authenticator's enrollment): checked under the login's per-account limiter, so a stolen
 * session cannot guess it faster than a login could; a wrong one is audited as `failure` and is
 * 401 `invalid_credentials`. A user without a password (an SSO user) always fails, in the time
 * a real check takes.
 */
export async function assertCurrentPassword(
  deps: Deps,
  user: UserRecord,
  password: string,
  failure: { action: 'password_change_failed' | 'mfa_enrollment_failed'; workspaceId: string },
  sourceIp: string,
): Promise<void> {
  const attempt = await reserveCredentialAttempt(deps, 'password', `${user.tenant_id}:${user.email}`, sourceIp);
  let valid = false;
  if (user.password_hash) ({ valid } = await verifyPassword(user.password_hash, password));
  else await burnPasswordVerification(password);
  if (!valid) {
    await recordAuditEvent(deps, { log: 'identity', tenantId: user.tenant_id, workspaceId: failure.workspaceId, actorId: user.id, action: failure.action, targetType: 'user', targetId: user.id, payload: { reason: 'wrong_current_password' }, sourceIp });
    throw new InvalidCredentialsError();
  }
  await attempt.succeeded();
}

export async function changePassword(deps: Deps, principal: Principal, input: { current_password: string; new_password: string }, sourceIp: string): Promise<void> {
  assertAcceptablePassword(input.new_password, 'new_password');
  const user = await getUser(deps, principal.tenantId, principal.userId);
  if (!user || user.status !== 'active') throw new UnauthenticatedError();
  await assertCurrentPassword(deps, user, input.current_password, { action: 'password_change_failed', workspaceId: principal.workspaceId }, sourceIp);
  // A token older than the `sid` claim names no session to keep: every sign-in before now ends.
  const keepSession = (principal.credential.kind === 'access_token' ? principal.credential.sessionId : undefined) ?? '';

  const event = auditEventPut(deps, {
    log: 'identity', tenantId: user.tenant_id, workspaceId: principal.workspaceId, actorId: user.id, action: 'password_changed', targetType: 'user', targetId: user.id, sourceIp,
    // Which session went on (its id is no secret: a refresh family id); every other one ended.
    payload: { other_sessions_ended: true, kept_session_id: keepSession || null },
  });
  try {
    await deps.table.transact([passwordUpdateItem(deps, user, await hashPassword(input.new_password), { expectedHash: user.password_hash, keepSession }), event.item]);
  } catch (error) {
    // Changed (or the user disabled) since we read it: the current password given is stale.
    if (isConditionFailure(error)) throw new InvalidCredentialsError();
    throw error;
  }
  await revokeAllSessions(deps, user.tenant_id, user.id, 'password_change', { except: keepSession });
}
