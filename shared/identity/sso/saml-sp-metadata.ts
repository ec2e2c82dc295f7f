/**
 * Tessera as a SAML service provider for one tenant, described once: the SP metadata (entity id
 * and HTTP-POST ACS from the public URL and the tenant slug, signed assertions wanted, its NameID
 * formats, the signing certificate once the tenant has SAML), which the tenant's metadata
 * document serves and the assertion consumer hands to samlify, and the constants the
 * AuthnRequest shares with it. No XML parser here: serving the metadata and starting a login
 * need none.
 */
import type { Config } from '../../config';
import type { Deps } from '../../deps';
import { NotFoundError } from '../../errors';
import { getTenantBySlug } from '../../store/identity-items';
import { getIdpConfig } from './idp-config';
import { serviceProviderEndpoints } from './sp-endpoints';

export const METADATA_NS = 'urn:oasis:names:tc:SAML:2.0:metadata';
export const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
export const HTTP_REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
export const HTTP_POST_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

/**
 * The NameID formats of the SP, in order. The AuthnRequest asks for the first (unspecified:
 * whatever the IdP issues, rather than an email NameID that an IdP without an email source
 * answers with a transient one); the SP metadata lists all three, and tools that keep one per SP
 * (SimpleSAMLphp) take the first.
 */
export const SP_NAMEID_FORMATS = ['urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified', 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent', 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'] as const;

/** A certificate's base64 DER body, whether it came with PEM armour and line breaks or not. */
export const normalizeCertificate = (cert: string) => cert.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');

/** Tessera's signing credential, when the tenant has SAML: published in metadata, signs requests when the IdP wants it. */
export interface SpSigning {
  /** Base64 DER. */
  certificate: string;
  signRequests: boolean;
}

/** Text or a double-quoted attribute value in the XML the SP writes (its metadata, the AuthnRequest). */
export const xmlEscape = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function serviceProviderMetadataXml(config: Pick<Config, 'publicUrl'>, tenantSlug: string, signing?: SpSigning): string {
  const endpoints = serviceProviderEndpoints(config, tenantSlug);
  const key = signing
    ? `<KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${normalizeCertificate(signing.certificate)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></KeyDescriptor>`
    : '';
  return (
    `<EntityDescriptor xmlns="${METADATA_NS}" xmlns:ds="${DSIG_NS}" entityID="${xmlEscape(endpoints.entity_id)}">` +
    `<SPSSODescriptor AuthnRequestsSigned="${signing?.signRequests ? 'true' : 'false'}" WantAssertionsSigned="true" protocolSupportEnumeration="${PROTOCOL_NS}">` +
    key +
    SP_NAMEID_FORMATS.map((format) => `<NameIDFormat>${format}</NameIDFormat>`).join('') +
    `<AssertionConsumerService index="0" Binding="${HTTP_POST_BINDING}" Location="${xmlEscape(endpoints.acs_url)}"/>` +
    `</SPSSODescriptor></EntityDescriptor>`
  );
}

/** The SP metadata a tenant registers at its IdP (served before SAML is configured too, then without a key). */
export async function serviceProviderMetadata(deps: Deps, tenantSlug: string): Promise<string> {
  const tenant = await getTenantBySlug(deps, tenantSlug);
  if (!tenant) throw new NotFoundError('tenant');
  const saml = (await getIdpConfig(deps, tenant.id))?.saml;
  return serviceProviderMetadataXml(deps.config, tenant.slug, saml ? { certificate: saml.sp_certificate, signRequests: saml.want_authn_requests_signed } : undefined);
}
