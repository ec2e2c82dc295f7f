/**
 * Request and response schemas of the authentication endpoints (login, token, logout, password
 * forgot, reset and change, the key set): the single source for request validation, handler
 * input types and the OpenAPI document.
 */
import * as z from 'zod/mini';
import { idOf } from '../schemas/field-schemas';
import { Email, NewPassword, OpaqueToken, PasswordAttempt, TenantSlug, Username } from './schemas';

/** Who signs in or asks for a reset link: an email (its domain routes to the tenant), or a username with the tenant's slug. */
const accountNamed = (b: { tenant?: string | undefined; email?: string | undefined; username?: string | undefined }, ctx: z.core.$RefinementCtx) => {
  if ((b.email === undefined) === (b.username === undefined)) ctx.addIssue({ code: 'custom', message: 'give exactly one of email and username', path: ['email'] });
  else if (b.username !== undefined && b.tenant === undefined) ctx.addIssue({ code: 'custom', message: 'is required with a username (only an email routes by its domain)', path: ['tenant'] });
};

export const LoginBodySchema = z
  .strictObject({
    tenant: z.optional(TenantSlug),
    email: z.optional(Email),
    username: z.optional(Username),
    password: PasswordAttempt,
    workspace_id: z.optional(idOf('ws')),
  })
  .check(z.superRefine(accountNamed));

export const TokenGrantBodySchema = z.discriminatedUnion('grant_type', [
  z.strictObject({ grant_type: z.literal('refresh_token'), refresh_token: OpaqueToken, workspace_id: z.optional(idOf('ws')) }),
  z.strictObject({
    grant_type: z.literal('sso_code'),
    code: OpaqueToken,
    /** RFC 7636: required when /start was given a code_challenge. */
    code_verifier: z.optional(z.string().check(z.regex(/^[A-Za-z0-9._~-]{43,128}$/, { message: 'must be an RFC 7636 code verifier (43 to 128 unreserved characters)' }))),
  }),
]);

export const LogoutBodySchema = z.strictObject({ refresh_token: OpaqueToken });

export const PasswordForgotBodySchema = z.strictObject({ tenant: z.optional(TenantSlug), email: z.optional(Email), username: z.optional(Username) }).check(z.superRefine(accountNamed));

export const PasswordResetBodySchema = z.strictObject({ token: OpaqueToken, new_password: NewPassword });

export const PasswordChangeBodySchema = z.strictObject({ current_password: PasswordAttempt, new_password: NewPassword });

export const TokenResponseSchema = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().check(z.int()),
    refresh_token: z.optional(z.string()),
    tenant_id: z.string(),
    workspace_id: z.string(),
  })
  .register(z.globalRegistry, { id: 'TokenResponse' });

export const MfaPendingResponseSchema = z
  .object({ mfa_required: z.literal(true), mfa_token: z.string(), enrollment_required: z.boolean() })
  .register(z.globalRegistry, { id: 'MfaPending' });

export const LoginResponseSchema = z.union([TokenResponseSchema, MfaPendingResponseSchema]);

/** RFC 7517 JSON Web Key Set of the keys that sign access tokens (Ed25519, RFC 8037). */
export const JwksSchema = z
  .object({
    keys: z.array(
      z.looseObject({
        kty: z.string(),
        kid: z.string(),
        alg: z.string(),
        use: z.literal('sig'),
        crv: z.optional(z.string()),
        x: z.optional(z.string()),
      }),
    ),
  })
  .register(z.globalRegistry, { id: 'JsonWebKeySet' });
