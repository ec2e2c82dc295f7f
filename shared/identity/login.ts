/**
 * Local login. Every path that does not end in a session costs the same work and answers the
 * same 401 (unknown tenant or email, no local password, wrong password, disabled user), so
 * neither the answer nor its timing tells whether an account exists.
 *
 * Round trips are counted, because each costs the function CPU (client marshalling, signing,
 * HTTP) beside the table's time: the account's reads (`findLoginAccount`: the slug's or
 * domain's pointer unless the process holds it, one batch, the user unless the process holds
 * its id, then read in the batch) bring the tenant's MFA policy and the head of its identity
 * log along; the reservation of the failure slots is one conditional write, sent with the
 * user's read; a success then writes once, its session or MFA step with the audit event and
 * the slot given back in one transaction. Three calls beside the per-IP limit's for a
 * returning user, five at most.
 */
import { epochSeconds } from '../clock';
import type { Deps } from '../deps';
import { InvalidCredentialsError } from '../errors';
import { burnPasswordVerification, hashPassword, verifyPassword } from '../crypto/passwords';
import { auditEventPut, identityLogHeadKey, recordAuditEvent, type AuditEventOptions } from '../audit/audit-log';
import { metricNames } from '../observability';
import { keys } from '../store/keys';
import type { MfaPolicyRecord, UserRecord } from '../store/records';
import { chainLinkOf, type StoredItem } from '../store/table-client';
import type { TokenResponse } from './access-tokens';
import { loginMfaDecision, mfaPolicyOf } from './mfa-policy';
import { newMfaTransaction } from './mfa-transactions';
import { reserveCredentialAttempt } from './rate-limits';
import { startSession, workspaceFor } from './sessions';
import { findLoginAccount } from './login-accounts';

export interface LoginInput {
  tenant?: string | undefined;
  /** Exactly one of email and username (the schema sees to it); a username comes with the tenant. */
  email?: string | undefined;
  username?: string | undefined;
  password: string;
  workspace_id?: string | undefined;
}

export type LoginResult = TokenResponse | { mfa_required: true; mfa_token: string; enrollment_required: boolean };

/** What a login needs of its tenant beside the account, read with it. */
const readAlongside = (tenantId: string) => [keys.mfaPolicy(tenantId), identityLogHeadKey(tenantId)];

export async function login(deps: Deps, input: LoginInput, sourceIp: string): Promise<LoginResult> {
  const { tenant, user, alongside, counted: attempt } = await findLoginAccount(deps, input, readAlongside, (subject) => reserveCredentialAttempt(deps, 'password', subject, sourceIp));

  let verified = false;
  let needsRehash = false;
  if (user?.password_hash) {
    ({ valid: verified, needsRehash } = await verifyPassword(user.password_hash, input.password));
  } else {
    await burnPasswordVerification(input.password);
  }

  // The identity log's head as read with the account: it saves each audit write its own read.
  const logHead: AuditEventOptions = tenant ? { head: chainLinkOf(alongside.get<StoredItem>(identityLogHeadKey(tenant.id))) } : {};
  if (!tenant || !user || !verified || user.status !== 'active') {
    deps.observability.count(metricNames.loginFailure, { method: 'password' });
    if (tenant) {
      const reason = !user ? 'unknown_user' : !verified ? 'wrong_password' : 'disabled_user';
      await recordAuditEvent(deps, { log: 'identity', tenantId: tenant.id, actorId: user?.id ?? null, action: 'login_failed', targetType: 'user', targetId: user?.id ?? 'unknown', payload: { method: 'password', reason }, sourceIp }, logHead);
    }
    throw new InvalidCredentialsError();
  }
  // The password was right: the slot goes back with the login's one write, or at once when
  // the login is refused before it (a workspace the user may not use).
  let workspaceId: string;
  try {
    if (needsRehash) await upgradePasswordHash(deps, user, input.password);
    workspaceId = await workspaceFor(deps, user, input.workspace_id);
  } catch (error) {
    await attempt.succeeded();
    throw error;
  }
  const authTime = epochSeconds(deps.clock);
  const decision = loginMfaDecision(mfaPolicyOf(tenant.id, alongside.get<MfaPolicyRecord>(keys.mfaPolicy(tenant.id))), user.mfa_enrolled);
  if (decision !== 'none') {
    const pending = newMfaTransaction(deps, { tenantId: tenant.id, userId: user.id, workspaceId, enrollmentRequired: decision === 'enroll', amr: ['pwd'], authTime });
    const event = auditEventPut(deps, { log: 'identity', tenantId: tenant.id, workspaceId, actorId: user.id, action: 'login_mfa_pending', targetType: 'user', targetId: user.id, payload: { method: 'password', enrollment_required: decision === 'enroll' }, sourceIp }, logHead);
    await deps.table.transact([pending.item, event.item, attempt.releaseItem()]);
    return { mfa_required: true, mfa_token: pending.token, enrollment_required: decision === 'enroll' };
  }
  deps.observability.count(metricNames.loginSuccess, { method: 'password' });
  return startSession(deps, { user, workspaceId, amr: ['pwd'], authTime, mfaAt: undefined }, { action: 'login_succeeded', sourceIp, payload: { method: 'password' }, ...logHead }, [attempt.releaseItem()]);
}

async function upgradePasswordHash(deps: Deps, user: UserRecord, password: string): Promise<void> {
  // Best effort: a concurrent change of the user wins, and the next login tries again.
  await deps.table
    .update({
      Key: keys.user(user.tenant_id, user.id),
      UpdateExpression: 'SET password_hash = :hash',
      ConditionExpression: 'password_hash = :old',
      ExpressionAttributeValues: { ':hash': await hashPassword(password), ':old': user.password_hash },
    })
    .catch(() => undefined);
}
