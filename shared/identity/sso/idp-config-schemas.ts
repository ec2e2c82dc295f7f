/** Request and response schemas of the tenant IdP configuration endpoints. */
import * as z from 'zod/mini';
import { idOf, TimestampSchema } from '../../schemas/field-schemas';
import { roles } from '../../store/identity-enums';
import { DomainName } from '../schemas';
import { AbsoluteUrl, providerTypes } from './schemas';

const IdpFields = {
  provider_type: z.enum(providerTypes),
  issuer: AbsoluteUrl,
  client_id: z.string().check(z.minLength(1), z.maxLength(256)),
  client_secret: z.string().check(z.minLength(1), z.maxLength(1024)),
  saml_metadata: z.string().check(z.minLength(1), z.maxLength(60_000)),
  email_domains: z.array(DomainName).check(z.maxLength(20)),
  allowed_redirect_uris: z.array(AbsoluteUrl).check(z.minLength(1), z.maxLength(20)),
  default_role: z.enum(roles),
  default_workspace_id: idOf('ws'),
  active: z.boolean(),
  /** An attribute Name as the IdP sends it: `uid`, `eduPersonPrincipalName`, `urn:oid:0.9.2342.19200300.100.1.1`, a claim URI. */
  saml_subject_attribute: z
    .string()
    .check(
      z.regex(/^[\x21-\x7e]{1,256}$/, { message: 'must be the Name of a SAML attribute as the identity provider sends it (1 to 256 characters, no spaces), e.g. uid or urn:oid:0.9.2342.19200300.100.1.1' }),
      z.meta({ description: 'SAML: the attribute that identifies the user when the IdP sends neither a persistent NameID nor a subject-id/pairwise-id attribute (e.g. `uid`)' }),
    ),
};

export const CreateIdpConfigBodySchema = z.strictObject({
  provider_type: IdpFields.provider_type,
  issuer: z.optional(IdpFields.issuer),
  client_id: z.optional(IdpFields.client_id),
  client_secret: z.optional(IdpFields.client_secret),
  saml_metadata: z.optional(IdpFields.saml_metadata),
  email_domains: z._default(IdpFields.email_domains, []),
  allowed_redirect_uris: IdpFields.allowed_redirect_uris,
  default_role: z._default(IdpFields.default_role, 'viewer'),
  default_workspace_id: z.optional(IdpFields.default_workspace_id),
  active: IdpFields.active,
  saml_subject_attribute: z.optional(IdpFields.saml_subject_attribute),
});

export const UpdateIdpConfigBodySchema = z
  .strictObject({
    provider_type: z.optional(IdpFields.provider_type),
    issuer: z.optional(IdpFields.issuer),
    client_id: z.optional(IdpFields.client_id),
    client_secret: z.optional(IdpFields.client_secret),
    saml_metadata: z.optional(IdpFields.saml_metadata),
    email_domains: z.optional(IdpFields.email_domains),
    allowed_redirect_uris: z.optional(IdpFields.allowed_redirect_uris),
    default_role: z.optional(IdpFields.default_role),
    default_workspace_id: z.optional(IdpFields.default_workspace_id),
    active: z.optional(IdpFields.active),
    /** `null` clears it. */
    saml_subject_attribute: z.optional(z.nullable(IdpFields.saml_subject_attribute)),
  })
  .check(z.refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'give at least one field to change', path: [] }));

export type CreateIdpConfigInput = z.infer<typeof CreateIdpConfigBodySchema>;

export type UpdateIdpConfigInput = z.infer<typeof UpdateIdpConfigBodySchema>;

export const IdpConfigSchema = z
  .object({
    tenant_id: z.string(),
    provider_type: z.enum(providerTypes),
    active: z.boolean(),
    issuer: z.nullable(z.string()),
    client_id: z.nullable(z.string()),
    /** The secret itself is write-only: only whether one is stored. */
    client_secret_set: z.boolean(),
    saml_metadata: z.nullable(z.string()),
    saml: z.nullable(z.object({ entity_id: z.string(), sso_url: z.string(), signing_certificate_sha256: z.array(z.string()), want_authn_requests_signed: z.boolean() })),
    email_domains: z.array(z.string()),
    allowed_redirect_uris: z.array(z.string()),
    default_role: z.enum(roles),
    default_workspace_id: z.string(),
    saml_subject_attribute: z.nullable(z.string()),
    service_provider: z.object({ redirect_uri: z.string(), acs_url: z.string(), entity_id: z.string(), metadata_url: z.string() }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .register(z.globalRegistry, { id: 'IdpConfig' });
