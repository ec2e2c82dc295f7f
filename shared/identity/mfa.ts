/**
 * TOTP enrollment, MFA challenges (login completion and step-up) and backup codes. Starting an
 * enrollment (a new secret and its QR code) is in `totp-enrollment-start.ts`, so that the
 * functions that only check codes do not carry the QR code renderer.
 *
 * Replay: the TOTP credential stores the last accepted time step and every acceptance is a
 * conditional write `last_step < step`, so one code (or an older one) wins once even under
 * parallel requests. Backup codes: `backup-codes.ts`.
 */
import { epochSeconds, isoNow } from '../clock';
import type { Deps } from '../deps';
import { ConflictError, ForbiddenError, InvalidMfaCodeError, UnauthenticatedError } from '../errors';
import { tokenPrefixes } from '../crypto/opaque-tokens';
import { encryptionContext } from '../crypto/encryption-contexts';
import { envelopeOf } from '../crypto/envelope';
import { verifyTotp } from '../crypto/totp';
import { auditEventPut, recordAuditEvent } from '../audit/audit-log';
import { metricNames } from '../observability';
import { isConditionFailure } from '../store/client';
import { getUser } from '../store/identity-items';
import { keys } from '../store/keys';
import type { MfaTransactionRecord, TotpCredentialRecord, UserRecord } from '../store/records';
import type { TransactItem } from '../store/table-client';
import type { TokenResponse } from './access-tokens';
import { acceptBackupCode, backupCodeItems } from './backup-codes';
import { consumeMfaTransactionItem, findMfaTransaction } from './mfa-transactions';
import type { Principal } from './principal';
import { reserveCredentialAttempt } from './rate-limits';
import { accessTokenResponse, startSession } from './sessions';

/** Who is doing MFA: a login waiting for it (mfa_token), or a signed-in user (access token). */
export type MfaSubject =
  | { kind: 'login'; user: UserRecord; transaction: MfaTransactionRecord }
  | { kind: 'session'; user: UserRecord; principal: Principal; credential: Extract<Principal['credential'], { kind: 'access_token' }> };

/** The mfa_token from the body, or from `Authorization: Bearer tsr_mfa_…`. */
export async function resolveMfaSubject(deps: Deps, principal: Principal | undefined, bodyMfaToken: string | undefined, authorization: string | undefined): Promise<MfaSubject> {
  const bearer = authorization?.replace(/^bearer\s+/i, '');
  const token = bodyMfaToken ?? (bearer?.startsWith(tokenPrefixes.mfa) ? bearer : undefined);
  if (token) {
    const transaction = await findMfaTransaction(deps, token);
    const user = await getUser(deps, transaction.tenant_id, transaction.user_id);
    if (!user || user.status !== 'active') throw new UnauthenticatedError('The MFA token is not valid or has expired; log in again');
    return { kind: 'login', user, transaction };
  }
  if (!principal) throw new UnauthenticatedError('Send the mfa_token of your login (as mfa_token in the body, or as the bearer), or an access token');
  const { credential } = principal;
  if (credential.kind === 'pat') throw new ForbiddenError('A personal access token cannot perform MFA');
  const user = await getUser(deps, principal.tenantId, principal.userId);
  if (!user) throw new UnauthenticatedError();
  return { kind: 'session', user, principal, credential };
}

/** What a TOTP secret's ciphertext is bound to. */
export const getTotpCredential = (deps: Deps, user: UserRecord) => deps.table.get<TotpCredentialRecord>(keys.totpCredential(user.tenant_id, user.id));

/** Checks a TOTP code; returns the transaction item that records its step (conditional), or throws. */
async function acceptTotpCode(deps: Deps, user: UserRecord, credential: TotpCredentialRecord, code: string, enable: boolean): Promise<TransactItem | undefined> {
  const secret = await (await envelopeOf(deps)).decrypt(credential.secret_encrypted, encryptionContext('totp_secret', { tenant_id: user.tenant_id, user_id: user.id }));
  const step = await verifyTotp({ secret, code, epochSeconds: epochSeconds(deps.clock), afterTimeStep: credential.last_step || undefined });
  if (step === undefined) return undefined;
  const now = isoNow(deps.clock);
  return deps.table.updateItem({
    Key: keys.totpCredential(user.tenant_id, user.id),
    UpdateExpression: enable ? 'SET last_step = :step, last_used_at = :now, enabled_at = :now' : 'SET last_step = :step, last_used_at = :now',
    ConditionExpression: enable ? 'last_step < :step AND enabled_at = :null' : 'last_step < :step AND enabled_at <> :null',
    ExpressionAttributeValues: { ':step': step, ':now': now, ':null': null },
  });
}

async function refuseMfa(deps: Deps, user: UserRecord, action: 'mfa_enrollment_failed' | 'mfa_challenge_failed', sourceIp: string, kind: 'totp' | 'backup_code'): Promise<never> {
  deps.observability.count(metricNames.mfaFailure, { method: kind });
  await recordAuditEvent(deps, { log: 'identity', tenantId: user.tenant_id, actorId: user.id, action, targetType: 'user', targetId: user.id, payload: {}, sourceIp });
  throw new InvalidMfaCodeError(kind);
}

/** Runs the winning writes; a lost race (the same code used in parallel) is a refusal. */
async function commitOrRefuse(deps: Deps, user: UserRecord, sourceIp: string, run: () => Promise<TokenResponse | undefined>, failureAction: 'mfa_enrollment_failed' | 'mfa_challenge_failed', kind: 'totp' | 'backup_code') {
  try {
    return await run();
  } catch (error) {
    if (isConditionFailure(error)) return refuseMfa(deps, user, failureAction, sourceIp, kind);
    throw error;
  }
}

export async function confirmTotpEnrollment(deps: Deps, subject: MfaSubject, code: string, sourceIp: string): Promise<{ backup_codes: string[] } & Partial<TokenResponse>> {
  if (subject.kind === 'login' && !subject.transaction.enrollment_required) throw new ForbiddenError('Answer the MFA challenge instead');
  const { user } = subject;
  const credential = await getTotpCredential(deps, user);
  if (!credential) throw new ConflictError('Start the enrollment first');
  if (credential.enabled_at) throw new ConflictError('TOTP is already enrolled');
  const attempt = await reserveCredentialAttempt(deps, 'mfa', `${user.tenant_id}:${user.id}`, sourceIp);
  const accept = await acceptTotpCode(deps, user, credential, code, true);
  if (!accept) return refuseMfa(deps, user, 'mfa_enrollment_failed', sourceIp, 'totp');
  await attempt.succeeded();

  const backup = await backupCodeItems(deps, user);
  const markEnrolled = deps.table.updateItem({
    Key: keys.user(user.tenant_id, user.id),
    UpdateExpression: 'SET mfa_enrolled = :true, updated_at = :now',
    ExpressionAttributeValues: { ':true': true, ':now': isoNow(deps.clock) },
  });
  const writes = [accept, markEnrolled, ...backup.items];
  const tokens = await commitOrRefuse(
    deps, user, sourceIp,
    async () => {
      if (subject.kind === 'login') {
        const t = subject.transaction;
        const now = epochSeconds(deps.clock);
        return startSession(
          deps,
          { user: { ...user, mfa_enrolled: true }, workspaceId: t.workspace_id, amr: [...t.amr, 'otp'], authTime: t.auth_time, mfaAt: now },
          { action: 'mfa_enrolled', sourceIp, payload: { type: 'totp', completes_login: true } },
          [consumeMfaTransactionItem(deps, t), ...writes],
        );
      }
      const event = auditEventPut(deps, { log: 'identity', tenantId: user.tenant_id, workspaceId: subject.principal.workspaceId, actorId: user.id, action: 'mfa_enrolled', targetType: 'user', targetId: user.id, payload: { type: 'totp' }, sourceIp });
      await deps.table.transact([...writes, event.item]);
      return undefined;
    },
    'mfa_enrollment_failed',
    'totp',
  );
  deps.observability.count(metricNames.mfaSuccess, { method: 'totp' });
  return { backup_codes: backup.codes, ...tokens };
}

export async function answerMfaChallenge(deps: Deps, subject: MfaSubject, answer: { code?: string | undefined; backup_code?: string | undefined }, sourceIp: string): Promise<TokenResponse> {
  if (subject.kind === 'login' && subject.transaction.enrollment_required) throw new ForbiddenError('Enroll TOTP first');
  const { user } = subject;
  const attempt = await reserveCredentialAttempt(deps, 'mfa', `${user.tenant_id}:${user.id}`, sourceIp);
  let accept: TransactItem | undefined;
  if (answer.code !== undefined) {
    const credential = await getTotpCredential(deps, user);
    accept = credential?.enabled_at ? await acceptTotpCode(deps, user, credential, answer.code, false) : undefined;
  } else if (answer.backup_code !== undefined) {
    accept = await acceptBackupCode(deps, user, answer.backup_code);
  }
  const method = answer.code !== undefined ? 'totp' : 'backup_code';
  if (!accept) return refuseMfa(deps, user, 'mfa_challenge_failed', sourceIp, method);
  await attempt.succeeded();

  const now = epochSeconds(deps.clock);
  const result = await commitOrRefuse(
    deps, user, sourceIp,
    async () => {
      if (subject.kind === 'login') {
        const t = subject.transaction;
        deps.observability.count(metricNames.loginSuccess, { method: 'password' });
        return startSession(
          deps,
          { user, workspaceId: t.workspace_id, amr: [...t.amr, 'otp'], authTime: t.auth_time, mfaAt: now },
          { action: 'login_succeeded', sourceIp, payload: { method: 'password', mfa: method } },
          [consumeMfaTransactionItem(deps, t), accept],
        );
      }
      const p = subject.principal;
      const event = auditEventPut(deps, { log: 'identity', tenantId: user.tenant_id, workspaceId: p.workspaceId, actorId: user.id, action: 'mfa_step_up', targetType: 'user', targetId: user.id, payload: { method }, sourceIp });
      await deps.table.transact([accept, event.item]);
      // Only an access token gets here (a PAT is refused when the subject is resolved).
      const { amr, authTime } = subject.credential;
      // The stepped-up token goes on in the caller's session (a token older than the `sid` claim: a session of its own).
      const sessionId = subject.credential.sessionId ?? deps.ids.next('fam');
      return accessTokenResponse(deps, { user, workspaceId: p.workspaceId, amr: [...new Set([...amr, 'otp'])], authTime, mfaAt: now, sessionId });
    },
    'mfa_challenge_failed',
    method,
  );
  deps.observability.count(metricNames.mfaSuccess, { method });
  return result!;
}
