/**
 * Request and response schemas of the identity endpoints: the single source for request
 * validation, handler input types and the OpenAPI document.
 */
import * as z from 'zod/mini';
import { DisplayText, idOf, TimestampSchema } from '../http/common-schemas';
import { mfaActions, mfaModes } from './mfa-actions';
import { roles } from './permissions';
import { isPublicEmailDomain } from './public-email-domains';

export const Email = z.pipe(z.string().check(z.trim(), z.toLowerCase(), z.maxLength(254)), z.email());
/**
 * An email domain a tenant may claim for routing: a domain name (lowercased, without a trailing
 * dot; at least two labels, so no single label and no IP address), and not one of a public mail provider.
 */
export const DomainName = z
  .string()
  .check(
    z.trim(),
    z.toLowerCase(),
    z.overwrite((domain) => domain.replace(/\.$/, '')),
    z.refine((domain) => !/^[\d.]+$/.test(domain) && !domain.includes(':'), { message: 'is an IP address; give a domain name', abort: true }),
    z.regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, { message: 'must be a domain name' }),
    z.refine((domain) => !isPublicEmailDomain(domain), { message: 'is a public mail provider\'s domain, which no tenant can claim' }),
  );
/**
 * A login name besides the email: 3 to 64 letters, digits, dots, hyphens or underscores,
 * starting and ending with a letter or digit, compared case-insensitively (kept lower case).
 * Never an email address, so an email and a username can never be mistaken for each other.
 */
export const Username = z.pipe(
  z.string().check(z.trim(), z.toLowerCase(), z.refine((v) => !v.includes('@'), { message: 'must not be an email address (a username has no @)', abort: true })),
  z.string().check(z.regex(/^[a-z0-9](?:[a-z0-9._-]{1,62})[a-z0-9]$/, { message: 'must be 3 to 64 letters, digits, dots, hyphens or underscores, starting and ending with a letter or digit' })),
);
export const TenantSlug = z.string().check(z.regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, { message: 'must be a tenant slug' }));
/** Login compares against the stored hash, so any length the policy may once have allowed is accepted here. */
const PasswordAttempt = z.string().check(z.minLength(1), z.maxLength(1024));
export const NewPassword = z.string().check(z.minLength(12), z.maxLength(128));
const RoleSchema = z.enum(roles);
const MfaCode = z.string().check(z.regex(/^\d{6}$/, { message: 'must be 6 digits' }));
const BackupCode = z.string().check(z.minLength(8), z.maxLength(64));
const OpaqueToken = z.string().check(z.minLength(1), z.maxLength(512));

// ---- authentication -------------------------------------------------------------------

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

// ---- MFA ------------------------------------------------------------------------------

export const MfaEnrollStartBodySchema = z.strictObject({ mfa_token: z.optional(OpaqueToken) });
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

// ---- personal access tokens ---------------------------------------------------------------

export const CreateTokenBodySchema = z.strictObject({
  name: DisplayText(128),
  scopes: z.array(z.string().check(z.minLength(1), z.maxLength(64))).check(z.minLength(1), z.maxLength(32)),
  expires_in_days: z._default(z.number().check(z.int(), z.gte(1), z.lte(365)), 90),
});

export const PersonalAccessTokenSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    scopes: z.array(z.string()),
    workspace_id: z.string(),
    expires_at: TimestampSchema,
    created_at: TimestampSchema,
    last_used_at: z.nullable(TimestampSchema),
    revoked_at: z.nullable(TimestampSchema),
  })
  .register(z.globalRegistry, { id: 'PersonalAccessToken' });

export const CreatedTokenSchema = z.extend(PersonalAccessTokenSchema, { token: z.string() }).register(z.globalRegistry, { id: 'CreatedPersonalAccessToken' });

// ---- permissions, users, workspaces ---------------------------------------------------------

export const PermissionListSchema = z.object({ permissions: z.array(z.object({ name: z.string(), description: z.string() })) });

export const MeSchema = z
  .object({
    id: z.string(),
    tenant_id: z.string(),
    email: z.string(),
    status: z.enum(['active', 'disabled']),
    workspace_id: z.string(),
    role: z.nullable(RoleSchema),
    tenant_admin: z.boolean(),
    permissions: z.array(z.string()),
    mfa_enrolled: z.boolean(),
  })
  .register(z.globalRegistry, { id: 'Me' });

export const UserSchema = z
  .object({
    id: z.string(),
    tenant_id: z.string(),
    email: z.string(),
    username: z.nullable(z.string()),
    status: z.enum(['active', 'disabled']),
    workspace_id: z.nullable(z.string()),
    role: z.nullable(RoleSchema),
    tenant_admin: z.boolean(),
    memberships: z.array(z.object({ workspace_id: z.string(), role: RoleSchema })),
    mfa_enrolled: z.boolean(),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .register(z.globalRegistry, { id: 'User' });

export const CreateUserBodySchema = z.strictObject({
  email: Email,
  username: z.optional(Username),
  password: z.optional(NewPassword),
  role: RoleSchema,
  workspace_id: z.optional(idOf('ws')),
  tenant_admin: z._default(z.boolean(), false),
});

export const UpdateUserBodySchema = z
  .strictObject({
    email: z.optional(Email),
    /** `null` removes the username. */
    username: z.optional(z.nullable(Username)),
    role: z.optional(RoleSchema),
    workspace_id: z.optional(idOf('ws')),
    tenant_admin: z.optional(z.boolean()),
  })
  .check(z.refine((b) => b.email !== undefined || b.username !== undefined || b.role !== undefined || b.tenant_admin !== undefined, {
    message: 'give at least one of email, username, role, tenant_admin',
    path: [],
  }));

export const UserListSchema = z.object({ users: z.array(UserSchema), next_cursor: z.nullable(z.string()) });

export const WorkspaceSchema = z
  .object({ id: z.string(), tenant_id: z.string(), name: z.string(), owner_id: z.string(), created_at: TimestampSchema, updated_at: TimestampSchema })
  .register(z.globalRegistry, { id: 'Workspace' });

export const CreateWorkspaceBodySchema = z.strictObject({ name: DisplayText(128) });
export const OwnerTransferBodySchema = z.strictObject({ new_owner_id: idOf('usr') });
export const WorkspaceListSchema = z.object({ workspaces: z.array(WorkspaceSchema), next_cursor: z.nullable(z.string()) });
export const TokenListSchema = z.object({ tokens: z.array(PersonalAccessTokenSchema), next_cursor: z.nullable(z.string()) });

export const TenantAuditEventQuerySchema = z.strictObject({
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 50),
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  action: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
  actor_id: z.optional(idOf('usr')),
  since: z.optional(z.iso.datetime({ offset: true })),
  until: z.optional(z.iso.datetime({ offset: true })),
});

// ---- email domains --------------------------------------------------------------------

export const AddEmailDomainBodySchema = z.strictObject({ domain: DomainName });
export const EmailDomainPathSchema = z.strictObject({ id: idOf('ten'), domain: DomainName });

export const EmailDomainSchema = z
  .object({
    domain: z.string(),
    status: z.enum(['pending', 'verified', 'failed']),
    method: z.enum(['dns_txt', 'operator']).check(z.meta({ description: 'How it was proven: the DNS TXT challenge, or the operator at tenant creation (never re-checked)' })),
    verification: z.object({
      type: z.literal('dns_txt'),
      name: z.string().check(z.meta({ description: 'The TXT record to publish: _tessera-challenge.<domain>' })),
      value: z.string().check(z.meta({ description: 'The value it must hold: tessera-verification=<random>' })),
    }),
    verified_at: z.nullable(TimestampSchema),
    checked_at: z.nullable(TimestampSchema),
    last_failure: z.nullable(z.string()).check(z.meta({ description: 'What the last failed check found' })),
    created_at: TimestampSchema,
  })
  .register(z.globalRegistry, { id: 'EmailDomain' });

export const EmailDomainListSchema = z.object({ domains: z.array(EmailDomainSchema) });
