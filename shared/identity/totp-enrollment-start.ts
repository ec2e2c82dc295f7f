/**
 * The start of a TOTP enrollment: a new secret, stored encrypted and not yet enabled, and the
 * `otpauth://` URI with its QR code for the authenticator app, for a caller who proved they own
 * the account. Confirming it with a first code is `confirmTotpEnrollment` (`mfa.ts`).
 */
import { create as createQrCode } from 'qrcode/lib/core/qrcode';
import { render as renderQrCodeSvg } from 'qrcode/lib/renderer/svg-tag';
import { isoNow } from '../clock';
import type { Deps } from '../deps';
import { ConflictError, ForbiddenError, ValidationError } from '../errors';
import { envelopeOf } from '../crypto/envelope';
import { generateTotpSecret, totpUri } from '../crypto/totp';
import { isConditionFailure } from '../store/client';
import { keys } from '../store/keys';
import type { TotpCredentialRecord } from '../store/records';
import { encryptionContext } from '../crypto/encryption-contexts';
import { getTotpCredential, type MfaSubject } from './mfa';
import { assertRecentIdpSignIn } from './mfa-policy';
import { assertCurrentPassword } from './password-change';

const ISSUER = 'Tessera';

export async function startTotpEnrollment(
  deps: Deps,
  subject: MfaSubject,
  proof: { currentPassword?: string | undefined },
  sourceIp: string,
): Promise<{ secret: string; otpauth_uri: string; qr_code: string }> {
  if (subject.kind === 'login' && !subject.transaction.enrollment_required) throw new ForbiddenError('Answer the MFA challenge instead');
  const { user } = subject;
  const existing = await getTotpCredential(deps, user);
  if (existing?.enabled_at) throw new ConflictError('TOTP is already enrolled');
  if (subject.kind === 'session') await proveOwnership(deps, subject, proof.currentPassword, sourceIp);
  const secret = generateTotpSecret();
  const now = isoNow(deps.clock);
  const envelope = await envelopeOf(deps);
  const record: TotpCredentialRecord = {
    id: deps.ids.next('mfa'),
    user_id: user.id,
    tenant_id: user.tenant_id,
    type: 'totp',
    secret_encrypted: await envelope.encrypt(secret, encryptionContext('totp_secret', { tenant_id: user.tenant_id, user_id: user.id })),
    secret_kms_key_id: envelope.keyId,
    enabled_at: null,
    last_used_at: null,
    last_step: 0,
    created_at: now,
  };
  try {
    // A pending enrollment may be restarted; an enabled one is never overwritten.
    await deps.table.put({ Item: { ...keys.totpCredential(user.tenant_id, user.id), ...record }, ConditionExpression: 'attribute_not_exists(PK) OR enabled_at = :null', ExpressionAttributeValues: { ':null': null } });
  } catch (error) {
    if (isConditionFailure(error)) throw new ConflictError('TOTP is already enrolled');
    throw error;
  }
  const uri = totpUri({ issuer: ISSUER, account: user.email, secret });
  return { secret, otpauth_uri: uri, qr_code: totpQrCode(uri) };
}

/**
 * The first authenticator binds the account to whoever holds it (every later step-up, and the
 * login under a policy that asks), so a session alone does not enroll one: a stolen access or
 * refresh token must not become the account. A login's `mfa_token` has just proven the
 * password; a session proves ownership again: the current password for a user who has one,
 * else (an SSO user) a sign-in at the IdP within the step-up window.
 */
async function proveOwnership(deps: Deps, subject: Extract<MfaSubject, { kind: 'session' }>, currentPassword: string | undefined, sourceIp: string): Promise<void> {
  const { user, principal, credential } = subject;
  if (user.password_hash === undefined && currentPassword === undefined) return assertRecentIdpSignIn(deps, credential.authTime);
  if (currentPassword === undefined) throw new ValidationError([{ path: 'current_password', message: 'is required to set up an authenticator from a session' }]);
  await assertCurrentPassword(deps, user, currentPassword, { action: 'mfa_enrollment_failed', workspaceId: principal.workspaceId }, sourceIp);
}

const QR_CODE_OPTIONS = { type: 'svg', errorCorrectionLevel: 'M', margin: 2 } as const;

/** The URI's QR code as an SVG data URL: what qrcode's `toString(uri, QR_CODE_OPTIONS)` draws (the unit test holds it to that). */
export function totpQrCode(uri: string): string {
  const svg = renderQrCodeSvg(createQrCode(uri, QR_CODE_OPTIONS), QR_CODE_OPTIONS);
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}
