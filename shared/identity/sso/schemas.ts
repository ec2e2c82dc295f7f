/**
 * Request and response schemas of the tenant SSO endpoints (IdP configuration, discovery,
 * start, callback): the single source for validation, handler input types and OpenAPI.
 */
import * as z from 'zod';
import { idOf, TimestampSchema } from '../../http/common-schemas';
import { roles } from '../permissions';
import { DomainName, Email, TenantSlug } from '../schemas';

export const providerTypes = ['oidc', 'saml'] as const;
export type ProviderType = (typeof providerTypes)[number];

/** Syntax only; which schemes and hosts are acceptable is decided with the configuration (https, or http on loopback locally). */
const AbsoluteUrl = z.string().max(2048).pipe(z.url({ protocol: /^https?$/ }));

const IdpFields = {
  provider_type: z.enum(providerTypes),
  issuer: AbsoluteUrl,
  client_id: z.string().min(1).max(256),
  client_secret: z.string().min(1).max(1024),
  saml_metadata: z.string().min(1).max(60_000),
  email_domains: z.array(DomainName).max(20),
  allowed_redirect_uris: z.array(AbsoluteUrl).min(1).max(20),
  default_role: z.enum(roles),
  default_workspace_id: idOf('ws'),
  active: z.boolean(),
  /** An attribute Name as the IdP sends it: `uid`, `eduPersonPrincipalName`, `urn:oid:0.9.2342.19200300.100.1.1`, a claim URI. */
  saml_subject_attribute: z
    .string()
    .regex(/^[\x21-\x7e]{1,256}$/, { message: 'must be the Name of a SAML attribute as the identity provider sends it (1 to 256 characters, no spaces), e.g. uid or urn:oid:0.9.2342.19200300.100.1.1' })
    .meta({ description: 'SAML: the attribute that identifies the user when the IdP sends neither a persistent NameID nor a subject-id/pairwise-id attribute (e.g. `uid`)' }),
};

export const CreateIdpConfigBodySchema = z.strictObject({
  provider_type: IdpFields.provider_type,
  issuer: IdpFields.issuer.optional(),
  client_id: IdpFields.client_id.optional(),
  client_secret: IdpFields.client_secret.optional(),
  saml_metadata: IdpFields.saml_metadata.optional(),
  email_domains: IdpFields.email_domains.default([]),
  allowed_redirect_uris: IdpFields.allowed_redirect_uris,
  default_role: IdpFields.default_role.default('viewer'),
  default_workspace_id: IdpFields.default_workspace_id.optional(),
  active: IdpFields.active,
  saml_subject_attribute: IdpFields.saml_subject_attribute.optional(),
});

export const UpdateIdpConfigBodySchema = z
  .strictObject({
    provider_type: IdpFields.provider_type.optional(),
    issuer: IdpFields.issuer.optional(),
    client_id: IdpFields.client_id.optional(),
    client_secret: IdpFields.client_secret.optional(),
    saml_metadata: IdpFields.saml_metadata.optional(),
    email_domains: IdpFields.email_domains.optional(),
    allowed_redirect_uris: IdpFields.allowed_redirect_uris.optional(),
    default_role: IdpFields.default_role.optional(),
    default_workspace_id: IdpFields.default_workspace_id.optional(),
    active: IdpFields.active.optional(),
    /** `null` clears it. */
    saml_subject_attribute: IdpFields.saml_subject_attribute.nullable().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'give at least one field to change', path: [] });

export type CreateIdpConfigInput = z.infer<typeof CreateIdpConfigBodySchema>;
export type UpdateIdpConfigInput = z.infer<typeof UpdateIdpConfigBodySchema>;

export const IdpConfigSchema = z
  .object({
    tenant_id: z.string(),
    provider_type: z.enum(providerTypes),
    active: z.boolean(),
    issuer: z.string().nullable(),
    client_id: z.string().nullable(),
    /** The secret itself is write-only: only whether one is stored. */
    client_secret_set: z.boolean(),
    saml_metadata: z.string().nullable(),
    saml: z
      .object({ entity_id: z.string(), sso_url: z.string(), signing_certificate_sha256: z.array(z.string()), want_authn_requests_signed: z.boolean() })
      .nullable(),
    email_domains: z.array(z.string()),
    allowed_redirect_uris: z.array(z.string()),
    default_role: z.enum(roles),
    default_workspace_id: z.string(),
    saml_subject_attribute: z.string().nullable(),
    service_provider: z.object({ redirect_uri: z.string(), acs_url: z.string(), entity_id: z.string(), metadata_url: z.string() }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .meta({ id: 'IdpConfig' });

// ---- discovery and login ---------------------------------------------------------------

export const DiscoverQuerySchema = z.strictObject({ email: Email });

export const DiscoverResponseSchema = z.object({
  tenant: z.string(),
  methods: z.array(z.enum(['password', 'sso'])),
  sso: z.object({ provider_type: z.enum(providerTypes), start_url: z.string() }).nullable(),
});

export const SsoTenantPathSchema = z.strictObject({ tenant: TenantSlug });

export const SsoStartQuerySchema = z.strictObject({
  redirect_uri: AbsoluteUrl,
  /** The client's own state, echoed on the final redirect (login CSRF protection for the client). */
  state: z.string().regex(/^[\x21-\x7e]{1,512}$/, { message: 'must be 1 to 512 visible ASCII characters' }).optional(),
  /** RFC 7636 S256 challenge binding the sso_code to the client that began the login. */
  code_challenge: z.string().regex(/^[A-Za-z0-9_-]{43}$/, { message: 'must be a base64url SHA-256 (43 characters)' }).optional(),
  code_challenge_method: z.literal('S256').optional(),
}).refine((q) => q.code_challenge_method === undefined || q.code_challenge !== undefined, { message: 'code_challenge_method needs a code_challenge', path: ['code_challenge'] });

/** What an IdP sends back: OIDC (query or form_post) or SAML (HTTP-POST). */
const CallbackFields = {
  code: z.string().min(1).max(4096).optional(),
  state: z.string().min(1).max(512).optional(),
  iss: z.string().max(2048).optional(),
  session_state: z.string().max(2048).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(2048).optional(),
  error_uri: z.string().max(2048).optional(),
};

export const SsoCallbackQuerySchema = z.strictObject(CallbackFields);

export const SsoCallbackFormSchema = z.strictObject({
  ...CallbackFields,
  SAMLResponse: z.string().min(1).max(60_000).optional(),
  RelayState: z.string().min(1).max(512).optional(),
});

export type SsoCallbackParams = z.infer<typeof SsoCallbackFormSchema>;

// ---- account linking ------------------------------------------------------------------

/** What the client gives to begin a link: the same as `/start` (the redirect URI must be on the tenant's allow-list). */
export const FederatedIdentityLinkBodySchema = z.strictObject({
  redirect_uri: AbsoluteUrl,
  state: z.string().regex(/^[\x21-\x7e]{1,512}$/, { message: 'must be 1 to 512 visible ASCII characters' }).optional(),
});

export const FederatedIdentityLinkResponseSchema = z
  .object({ authorization_url: z.string().meta({ description: 'Send the browser here; the IdP returns it to the callback, which redirects to redirect_uri?linked=true&federated_identity_id=… (or ?error=…)' }) })
  .meta({ id: 'FederatedIdentityLinkStart' });

export const FederatedIdentitySchema = z
  .object({ id: z.string(), provider_type: z.enum(providerTypes), issuer: z.string(), subject: z.string(), created_at: TimestampSchema })
  .meta({ id: 'FederatedIdentity' });

export const FederatedIdentityListSchema = z.object({ federated_identities: z.array(FederatedIdentitySchema), next_cursor: z.string().nullable() });

export const UserFederatedIdentityPathSchema = z.strictObject({ id: idOf('usr'), identity_id: idOf('ext') });
