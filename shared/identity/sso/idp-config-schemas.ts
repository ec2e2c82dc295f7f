/** Request and response schemas of the tenant IdP configuration endpoints. */
import * as z from 'zod';
import { idOf, TimestampSchema } from '../../schemas/field-schemas';
import { roles } from '../../store/identity-enums';
import { DomainName } from '../schemas';
import { AbsoluteUrl, providerTypes } from './schemas';

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
