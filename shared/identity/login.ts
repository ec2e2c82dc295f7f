/**
 * Local login. Every path that does not end in a session costs the same work and answers the
 * same 401 (unknown tenant or email, no local password, wrong password, disabled user), so
 * neither the answer nor its timing tells whether an account exists.
 */
import { epochSeconds } from '../clock';
import type { Deps } from '../deps';
import { InvalidCredentialsError } from '../errors';
import { burnPasswordVerification, hashPassword, verifyPassword } from '../crypto/passwords';
import { recordAuditEvent } from '../audit/audit-log';
import { metricNames } from '../observability';
import { keys } from '../store/keys';
import type { UserRecord } from '../store/records';
import type { TokenResponse } from './access-tokens';
import { getMfaPolicy, loginMfaDecision } from './mfa-policy';
import { createMfaTransaction } from './mfa-transactions';
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

export async function login(deps: Deps, input: LoginInput, sourceIp: string): Promise<LoginResult> {
  const { tenant, user, limiterSubject } = await findLoginAccount(deps, input);
  const attempt = await reserveCredentialAttempt(deps, 'password', limiterSubject, sourceIp);

  let verified = false;
  let needsRehash = false;
  if (user?.password_hash) {
    ({ valid: verified, needsRehash } = await verifyPassword(user.password_hash, input.password));
  } else {
    await burnPasswordVerification(input.password);
  }

  if (!tenant || !user || !verified || user.status !== 'active') {
    deps.observability.count(metricNames.loginFailure, { method: 'password' });
    if (tenant) {
      const reason = !user ? 'unknown_user' : !verified ? 'wrong_password' : 'disabled_user';
      await recordAuditEvent(deps, { log: 'identity', tenantId: tenant.id, actorId: user?.id ?? null, action: 'login_failed', targetType: 'user', targetId: user?.id ?? 'unknown', payload: { method: 'password', reason }, sourceIp });
    }
    throw new InvalidCredentialsError();
  }
  await attempt.succeeded();
  if (needsRehash) await upgradePasswordHash(deps, user, input.password);

  const workspaceId = await workspaceFor(deps, user, input.workspace_id);
  const authTime = epochSeconds(deps.clock);
  const decision = loginMfaDecision(await getMfaPolicy(deps, tenant.id), user.mfa_enrolled);
  if (decision !== 'none') {
    const mfaToken = await createMfaTransaction(deps, { tenantId: tenant.id, userId: user.id, workspaceId, enrollmentRequired: decision === 'enroll', amr: ['pwd'], authTime });
    await recordAuditEvent(deps, { log: 'identity', tenantId: tenant.id, workspaceId, actorId: user.id, action: 'login_mfa_pending', targetType: 'user', targetId: user.id, payload: { method: 'password', enrollment_required: decision === 'enroll' }, sourceIp });
    return { mfa_required: true, mfa_token: mfaToken, enrollment_required: decision === 'enroll' };
  }
  deps.observability.count(metricNames.loginSuccess, { method: 'password' });
  return startSession(deps, { user, workspaceId, amr: ['pwd'], authTime, mfaAt: undefined }, { action: 'login_succeeded', sourceIp, payload: { method: 'password' } });
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
