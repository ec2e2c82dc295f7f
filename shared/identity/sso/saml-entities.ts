/**
 * samlify entities of one tenant: Tessera as the service provider (entity id and ACS derived
 * from the public URL and the tenant slug; signed assertions or responses required; a small
 * clock drift) and the tenant's IdP from its stored metadata. IdP-initiated login is not
 * offered: every response must answer an AuthnRequest Tessera stored.
 */
import samlify from 'samlify';
import type { Config } from '../../config';
import type { Deps } from '../../deps';
import { NotFoundError } from '../../errors';
import { getTenantBySlug } from '../../store/identity-items';
import type { SamlSettingsRecord } from '../../store/records';
import { getIdpConfig } from './idp-config';
import { serviceProviderEndpoints } from './sp-endpoints';

/** Allowed clock difference with the IdP for NotBefore / NotOnOrAfter. */
export const SAML_CLOCK_SKEW_SECONDS = 30;

const { binding } = samlify.Constants.namespace;

/** The encryption context of Tessera's SAML signing key of a tenant. */
export const spSigningKeyContext = (tenantId: string) => ({ tenant_id: tenantId, purpose: 'saml_sp_signing_key' });

/** Tessera's signing credential, when the tenant has SAML: published in metadata, signs requests when the IdP wants it. */
export interface SpSigning {
  /** Base64 DER. */
  certificate: string;
  /** PEM; only where a request is signed. */
  privateKey?: string;
  signRequests: boolean;
}

const pem = (body: string) => `-----BEGIN CERTIFICATE-----\n${body.replace(/(.{64})/g, '$1\n').trim()}\n-----END CERTIFICATE-----`;

export function serviceProviderFor(config: Pick<Config, 'publicUrl'>, tenantSlug: string, signing?: SpSigning) {
  const endpoints = serviceProviderEndpoints(config, tenantSlug);
  return samlify.ServiceProvider({
    entityID: endpoints.entity_id,
    assertionConsumerService: [{ Binding: binding.post, Location: endpoints.acs_url }],
    authnRequestsSigned: signing?.signRequests ?? false,
    ...(signing ? { signingCert: pem(signing.certificate) } : {}),
    ...(signing?.privateKey ? { privateKey: signing.privateKey } : {}),
    wantAssertionsSigned: true,
    // The AuthnRequest asks for the first (unspecified: whatever the IdP issues, rather than an
    // email NameID that an IdP without an email source answers with a transient one); the SP
    // metadata lists all three, and tools that keep one per SP (SimpleSAMLphp) take the first.
    nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified', 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent', 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'],
    clockDrifts: [-SAML_CLOCK_SKEW_SECONDS * 1000, SAML_CLOCK_SKEW_SECONDS * 1000],
  });
}

export function identityProviderFor(settings: SamlSettingsRecord) {
  return samlify.IdentityProvider({ metadata: settings.metadata });
}

/** The SP metadata a tenant registers at its IdP (served before SAML is configured too, then without a key). */
export async function serviceProviderMetadata(deps: Deps, tenantSlug: string): Promise<string> {
  const tenant = await getTenantBySlug(deps, tenantSlug);
  if (!tenant) throw new NotFoundError('tenant');
  const saml = (await getIdpConfig(deps, tenant.id))?.saml;
  return serviceProviderFor(deps.config, tenant.slug, saml ? { certificate: saml.sp_certificate, signRequests: saml.want_authn_requests_signed } : undefined).getMetadata();
}
