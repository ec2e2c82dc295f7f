/**
 * The tenant MFA policy and what it asks of a request.
 *
 * - OFF: no MFA is asked for anything.
 * - OPTIONAL: users may enroll; an enrolled user is asked for the listed actions (LOGIN
 *   included when listed); a user who is not enrolled is not.
 * - REQUIRED: every user needs MFA for the listed actions and is made to enroll at login.
 */
import { epochSeconds, isoNow } from '../clock';
import type { Deps } from '../deps';
import { MfaRequiredError } from '../errors';
import { auditEventPut } from '../audit/audit-log';
import { getUser } from '../store/identity-items';
import { keys } from '../store/keys';
import type { MfaPolicyRecord, UserRecord } from '../store/records';
import type { ItemRead } from '../store/table-client';
import { mfaActions, type MfaAction, type MfaMode } from '../store/identity-enums';
import { assertOwnTenant, type Principal } from './principal';

/** A step-up MFA is accepted for this long (API.md: "no older than 10 minutes"). */
const STEP_UP_MAX_AGE_SECONDS = 600;

/** How far ahead of our clock an IdP's asserted time may be. */
const IDP_CLOCK_SKEW_SECONDS = 60;

/** The spec's planned default: REQUIRED for all seven actions. */
export function defaultMfaPolicy(tenantId: string, now: string): MfaPolicyRecord {
  return { tenant_id: tenantId, mfa_mode: 'REQUIRED', required_actions: [...mfaActions], created_at: now, updated_at: now };
}

/** The policy a tenant's stored record says (the default when it has none), for a caller that read the record itself. */
export function mfaPolicyOf(tenantId: string, record: MfaPolicyRecord | undefined): MfaPolicyRecord {
  return record ?? defaultMfaPolicy(tenantId, new Date(0).toISOString());
}

/** A tenant's MFA policy: the stored one, or the default when none was ever stored. */
export const mfaPolicyRead = (tenantId: string): ItemRead<MfaPolicyRecord> => ({
  key: keys.mfaPolicy(tenantId),
  found: (item) => mfaPolicyOf(tenantId, item as unknown as MfaPolicyRecord | undefined),
});

export const getMfaPolicy = (deps: Deps, tenantId: string): Promise<MfaPolicyRecord> => deps.table.read(mfaPolicyRead(tenantId));

export type LoginMfaDecision = 'none' | 'challenge' | 'enroll';

export function loginMfaDecision(policy: MfaPolicyRecord, mfaEnrolled: boolean): LoginMfaDecision {
  if (policy.mfa_mode === 'OFF') return 'none';
  if (policy.mfa_mode === 'REQUIRED' && !mfaEnrolled) return 'enroll';
  if (mfaEnrolled && policy.required_actions.includes('LOGIN')) return 'challenge';
  return 'none';
}

/**
 * Refuse with 401 mfa_required (RFC 9470) unless the credential carries an MFA no older than
 * ten minutes. A PAT never carries one.
 */
export function assertRecentMfa(deps: Deps, principal: Principal): void {
  const credential = principal.credential;
  if (credential.kind === 'pat') throw new MfaRequiredError('This action needs an interactive session with a recent MFA; a personal access token cannot perform it');
  if (credential.mfaAt === undefined || epochSeconds(deps.clock) - credential.mfaAt > STEP_UP_MAX_AGE_SECONDS) throw new MfaRequiredError();
}

/**
 * A sign-in at the tenant's IdP no older than the step-up window: what lets an SSO user (who has
 * no password to give) bind a first authenticator from a session. A time later than now (beyond
 * the clocks' usual skew) proves nothing.
 */
export function assertRecentIdpSignIn(deps: Deps, authTime: number): void {
  const age = epochSeconds(deps.clock) - authTime;
  if (age > STEP_UP_MAX_AGE_SECONDS || age < -IDP_CLOCK_SKEW_SECONDS) {
    throw new MfaRequiredError('Setting up an authenticator needs a sign-in at your identity provider in the last 10 minutes: sign in again, then set it up');
  }
}

/**
 * Whether a password session that never answered an MFA may go on (refresh) under the tenant's
 * policy: not under REQUIRED when a sign-in now would ask its user for an MFA (to enroll or to
 * answer), or a session from before the policy, or a stolen refresh token of it, would outlive
 * the policy for good. It signs in again. (SSO sessions are the IdP's to hold to MFA.)
 */
export function sessionWithoutMfaMayGoOn(policy: MfaPolicyRecord, user: UserRecord): boolean {
  return policy.mfa_mode !== 'REQUIRED' || loginMfaDecision(policy, user.mfa_enrolled) === 'none';
}

/** Step-up for an action the tenant policy may list (the route table names the action). */
export async function requireRecentMfa(deps: Deps, principal: Principal, action: MfaAction): Promise<void> {
  const policy = await getMfaPolicy(deps, principal.tenantId);
  if (policy.mfa_mode === 'OFF' || !policy.required_actions.includes(action)) return;
  if (policy.mfa_mode === 'OPTIONAL') {
    const user = await getUser(deps, principal.tenantId, principal.userId);
    if (!user?.mfa_enrolled) return;
  }
  assertRecentMfa(deps, principal);
}

/**
 * GET /v1/tenants/{id}/mfa-policy: `policy` is the caller's own tenant's (read by the credential's
 * tenant, never the path's); a path naming another tenant is 403 whatever that tenant has.
 */
export function ownTenantMfaPolicy(principal: Principal, tenantId: string, policy: MfaPolicyRecord): MfaPolicyRecord {
  assertOwnTenant(principal, tenantId);
  return policy;
}

export interface MfaPolicyChange {
  mfa_mode?: MfaMode | undefined;
  required_actions?: MfaAction[] | undefined;
}

/**
 * Changing the policy is itself guarded: unless the policy is currently OFF (nothing to
 * protect yet), it needs a recent MFA, whatever the listed actions. Otherwise a stolen session
 * without MFA could switch MFA off for the whole tenant.
 */
export async function updateMfaPolicy(deps: Deps, principal: Principal, tenantId: string, change: MfaPolicyChange, sourceIp: string): Promise<MfaPolicyRecord> {
  assertOwnTenant(principal, tenantId);
  const before = await getMfaPolicy(deps, tenantId);
  if (before.mfa_mode !== 'OFF') assertRecentMfa(deps, principal);
  const now = isoNow(deps.clock);
  const after: MfaPolicyRecord = {
    tenant_id: tenantId,
    mfa_mode: change.mfa_mode ?? before.mfa_mode,
    // Stored in the registry's order, so the answer does not depend on the order sent.
    required_actions: change.required_actions ? mfaActions.filter((a) => change.required_actions!.includes(a)) : before.required_actions,
    created_at: before.created_at,
    updated_at: now,
  };
  const event = auditEventPut(deps, {
    log: 'identity', tenantId, workspaceId: principal.workspaceId, actorId: principal.userId, action: 'mfa_policy_updated', targetType: 'tenant', targetId: tenantId,
    payload: { before: { mfa_mode: before.mfa_mode, required_actions: before.required_actions }, after: { mfa_mode: after.mfa_mode, required_actions: after.required_actions } },
    sourceIp,
  });
  await deps.table.transact([deps.table.putItem({ ...keys.mfaPolicy(tenantId), ...after }), event.item]);
  return after;
}
