/**
 * The tenant MFA policy and what it asks of a request.
 *
 * - OFF: no MFA is asked for anything.
 * - OPTIONAL: users may enroll; an enrolled user is asked for the listed actions (LOGIN
 *   included when listed); a user who is not enrolled is not.
 * - REQUIRED: every user needs MFA for the listed actions and is made to enroll at login.
 */
import { epochSeconds } from '../clock';
import type { Deps } from '../deps';
import { MfaRequiredError } from '../errors';
import { getMfaPolicyRecord, getUser } from '../store/identity-items';
import type { MfaPolicyRecord } from '../store/records';
import { mfaActions, STEP_UP_MAX_AGE_SECONDS, type MfaAction } from './mfa-actions';
import type { Principal } from './principal';

/** The spec's planned default: REQUIRED for all seven actions. */
export function defaultMfaPolicy(tenantId: string, now: string): MfaPolicyRecord {
  return { tenant_id: tenantId, mfa_mode: 'REQUIRED', required_actions: [...mfaActions], created_at: now, updated_at: now };
}

export async function getMfaPolicy(deps: Deps, tenantId: string): Promise<MfaPolicyRecord> {
  return (await getMfaPolicyRecord(deps, tenantId)) ?? defaultMfaPolicy(tenantId, new Date(0).toISOString());
}

export type LoginMfaDecision = 'none' | 'challenge' | 'enroll';

export function loginMfaDecision(policy: MfaPolicyRecord, mfaEnrolled: boolean): LoginMfaDecision {
  if (policy.mfa_mode === 'OFF') return 'none';
  if (policy.mfa_mode === 'REQUIRED' && !mfaEnrolled) return 'enroll';
  if (mfaEnrolled && policy.required_actions.includes('LOGIN')) return 'challenge';
  return 'none';
}

export function actionNeedsMfa(policy: MfaPolicyRecord, action: MfaAction, mfaEnrolled: boolean): boolean {
  if (policy.mfa_mode === 'OFF' || !policy.required_actions.includes(action)) return false;
  return policy.mfa_mode === 'REQUIRED' || mfaEnrolled;
}

/**
 * Step-up: refuse with 401 mfa_required (RFC 9470) unless the credential carries an MFA no
 * older than ten minutes. A PAT never carries one.
 */
export async function requireRecentMfa(deps: Deps, principal: Principal, action: MfaAction): Promise<void> {
  const policy = await getMfaPolicy(deps, principal.tenantId);
  if (policy.mfa_mode === 'OFF' || !policy.required_actions.includes(action)) return;
  if (policy.mfa_mode === 'OPTIONAL') {
    const user = await getUser(deps, principal.tenantId, principal.userId);
    if (!user?.mfa_enrolled) return;
  }
  const credential = principal.credential;
  if (credential.kind === 'pat') throw new MfaRequiredError('This action needs an interactive session with a recent MFA; a personal access token cannot perform it');
  if (credential.mfaAt === undefined || epochSeconds(deps.clock) - credential.mfaAt > STEP_UP_MAX_AGE_SECONDS) throw new MfaRequiredError();
}
