/** Request and response schemas of the MFA endpoints (enrollment, challenge, backup codes, the tenant policy). */
import * as z from 'zod/mini';
import { TimestampSchema } from '../schemas/field-schemas';
import { mfaActions, mfaModes } from '../store/identity-enums';
import { TokenResponseSchema } from './auth-schemas';
import { BackupCode, MfaCode, OpaqueToken, PasswordAttempt } from './schemas';

export const MfaEnrollStartBodySchema = z.strictObject({
  mfa_token: z.optional(OpaqueToken),
  current_password: z.optional(PasswordAttempt).check(z.meta({ description: 'From a session (an access token), for a user with a password: the proof that the caller owns the account. Not needed with an mfa_token' })),
});

export const MfaEnrollConfirmBodySchema = z.strictObject({ mfa_token: z.optional(OpaqueToken), code: MfaCode });

export const MfaChallengeBodySchema = z
  .strictObject({ mfa_token: z.optional(OpaqueToken), code: z.optional(MfaCode), backup_code: z.optional(BackupCode) })
  .check(z.refine((b) => (b.code === undefined) !== (b.backup_code === undefined), {
    message: 'give exactly one of code and backup_code',
    path: ['code'],
  }));

export const MfaEnrollStartResponseSchema = z.object({ secret: z.string(), otpauth_uri: z.string(), qr_code: z.string() });

export const BackupCodesResponseSchema = z.object({ backup_codes: z.array(z.string()) });

export const MfaEnrollConfirmResponseSchema = z.extend(BackupCodesResponseSchema, z.partial(TokenResponseSchema).shape);

export const MfaPolicySchema = z
  .object({ tenant_id: z.string(), mfa_mode: z.enum(mfaModes), required_actions: z.array(z.enum(mfaActions)), created_at: TimestampSchema, updated_at: TimestampSchema })
  .register(z.globalRegistry, { id: 'MfaPolicy' });

export const UpdateMfaPolicyBodySchema = z
  .strictObject({
    mfa_mode: z.optional(z.enum(mfaModes)),
    required_actions: z.optional(
      z
        .array(z.enum(mfaActions))
        .check(z.maxLength(mfaActions.length), z.refine((actions) => new Set(actions).size === actions.length, { message: 'must not repeat an action' })),
    ),
  })
  .check(z.refine((b) => b.mfa_mode !== undefined || b.required_actions !== undefined, { message: 'give mfa_mode, required_actions or both' }));
