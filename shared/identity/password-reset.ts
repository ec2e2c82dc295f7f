/**
 * `POST /v1/auth/password/reset`: the token of a reset link (see `password-forgot.ts`) sets a
 * new password, once; every refresh token of the user is revoked, and every other reset link
 * sent before it stops working. A link sent before the user's email changed never works.
 */
import type { Deps } from '../deps';
import { UnauthenticatedError } from '../errors';
import { auditEventPut } from '../audit/audit-log';
import { hasTokenShape, sha256Hex } from '../crypto/opaque-tokens';
import { hashPassword } from '../crypto/passwords';
import { isConditionFailure } from '../store/client';
import { getUser } from '../store/identity-items';
import { keys } from '../store/keys';
import type { PasswordResetTokenRecord } from '../store/records';
import { passwordUpdateItem } from './password-change';
import { assertAcceptablePassword } from './password-policy';
import { rateLimitedAddressOf } from '../http/client-address';
import { reserveCredentialAttempt } from './rate-limits';
import { revokeAllSessions } from './sessions';

export async function resetPassword(deps: Deps, input: { token: string; new_password: string }, sourceIp: string): Promise<void> {
  assertAcceptablePassword(input.new_password, 'new_password');
  const invalid = () => new UnauthenticatedError('The reset link is not valid, was already used or has expired; ask for a new one');
  // Tokens carry 256 bits, so guessing is hopeless; failures are still counted per source IP.
  const attempt = await reserveCredentialAttempt(deps, 'reset', `reset:${rateLimitedAddressOf(sourceIp)}`, sourceIp);
  if (!hasTokenShape('reset', input.token)) throw invalid();
  const tokenHash = sha256Hex(input.token);
  const record = await deps.table.get<PasswordResetTokenRecord>(keys.passwordResetToken(tokenHash));
  if (!record || Date.parse(record.expires_at) <= deps.clock.now().getTime()) throw invalid();
  const user = await getUser(deps, record.tenant_id, record.user_id);
  if (!user || user.status !== 'active') throw invalid();
  // A password set since the link was sent (a reset by another link, a change) ends the link,
  // and so does an email change: the link went to an address that is no longer the account's.
  if (user.password_set_at !== undefined && user.password_set_at >= record.created_at) throw invalid();
  if (user.reset_links_valid_after !== undefined && user.reset_links_valid_after >= record.created_at) throw invalid();
  await attempt.succeeded();

  const event = auditEventPut(deps, {
    log: 'identity', tenantId: user.tenant_id, actorId: user.id, action: 'password_reset', targetType: 'user', targetId: user.id,
    payload: { reset_id: record.id }, sourceIp,
  });
  try {
    await deps.table.transact([
      // Consuming the token in the same transaction makes it single-use under parallel requests.
      deps.table.deleteItem({ Key: keys.passwordResetToken(tokenHash), ConditionExpression: 'attribute_exists(PK)' }),
      passwordUpdateItem(deps, user, await hashPassword(input.new_password), { endSessions: true, resetLinkSentAt: record.created_at }),
      event.item,
    ]);
  } catch (error) {
    if (isConditionFailure(error)) throw invalid();
    throw error;
  }
  await revokeAllSessions(deps, user.tenant_id, user.id, 'password_reset');
}
