/**
 * `POST /v1/auth/password/forgot`: mails a link holding a single-use token (stored as its
 * SHA-256 digest, valid 30 minutes); `password-reset.ts` consumes it.
 *
 * It answers the same 202 whether or not the account exists. Per account and window it mails
 * at most `rateLimits.accountFailures` links; beyond that it still answers 202 and sends
 * nothing, so the endpoint can neither enumerate accounts nor flood a mailbox.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { RESET_PASSWORD_PATH } from '../console-paths';
import type { Deps } from '../deps';
import { RateLimitedError } from '../errors';
import { auditEventPut } from '../audit/audit-log';
import { generateOpaqueToken, sha256Hex } from '../crypto/opaque-tokens';
import { emailSenderFor } from '../email/create-email-sender';
import { passwordResetEmail } from '../email/templates';
import { metricNames } from '../observability';
import { keys } from '../store/keys';
import type { PasswordResetTokenRecord } from '../store/records';
import { reserveCredentialAttempt } from './rate-limits';
import { findLoginAccount, type AccountName } from './login-accounts';

export const RESET_TOKEN_LIFETIME_MINUTES = 30;

/**
 * The answer never comes before `config.passwordResetResponseFloorMs` after the request
 * began: mailing a link (a token write and an SES call) takes longer than finding no account,
 * and the difference would tell an observer which emails have accounts.
 */
export async function requestPasswordReset(deps: Deps, input: AccountName, sourceIp: string): Promise<void> {
  const started = performance.now();
  try {
    await mailResetLink(deps, input, sourceIp);
  } finally {
    const remaining = deps.config.passwordResetResponseFloorMs - (performance.now() - started);
    if (remaining > 0) await sleep(remaining);
  }
}

async function mailResetLink(deps: Deps, input: AccountName, sourceIp: string): Promise<void> {
  const { user, limiterSubject } = await findLoginAccount(deps, input);
  try {
    // Counted per account whether or not it exists; never given back (a request is not a failure).
    await reserveCredentialAttempt(deps, 'reset', `forgot:${limiterSubject}`, sourceIp);
  } catch (error) {
    if (error instanceof RateLimitedError) return;
    throw error;
  }
  // A user the IdP provisioned signs in there: a local password would bypass the IdP (its MFA,
  // its deprovisioning), so no reset link is sent.
  if (!user || user.status !== 'active' || user.federated) return;

  const token = generateOpaqueToken('reset');
  const now = deps.clock.now();
  const expires = new Date(now.getTime() + RESET_TOKEN_LIFETIME_MINUTES * 60_000);
  const record: PasswordResetTokenRecord = {
    id: deps.ids.next('rst'),
    token_hash: sha256Hex(token),
    tenant_id: user.tenant_id,
    user_id: user.id,
    expires_at: expires.toISOString(),
    created_at: now.toISOString(),
  };
  const event = auditEventPut(deps, {
    log: 'identity', tenantId: user.tenant_id, actorId: user.id, action: 'password_reset_requested', targetType: 'user', targetId: user.id,
    payload: { reset_id: record.id, expires_at: record.expires_at }, sourceIp,
  });
  await deps.table.transact([deps.table.putItem({ ...keys.passwordResetToken(record.token_hash), ...record, ttl: Math.floor(expires.getTime() / 1000) }), event.item]);
  const resetLink = `${deps.config.publicUrl}${RESET_PASSWORD_PATH}?token=${encodeURIComponent(token)}`;
  try {
    await emailSenderFor(deps).send(passwordResetEmail({ to: user.email, resetLink, expiresInMinutes: RESET_TOKEN_LIFETIME_MINUTES }));
  } catch (error) {
    // Still the same 202: an error only for existing accounts would tell which exist. The
    // unused token expires by itself; operators see the failure in the logs.
    deps.observability.logger.error('password reset email not sent', { tenant_id: user.tenant_id, user_id: user.id, error: error instanceof Error ? error.name : 'unknown' });
    deps.observability.count(metricNames.emailSendFailure);
  }
}
