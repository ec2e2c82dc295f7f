/**
 * A real signing SAML IdP for the tests: an RSA key pair with a self-signed X.509 certificate
 * (generated per run, as Tessera makes its own SP's), its metadata XML, and samlify's IdP role to answer AuthnRequests.
 */
import samlify from 'samlify';
import { selfSignedCertificate } from '../../shared/crypto/self-signed-certificate';
import type { IdpMetadata } from '../../shared/identity/sso/saml-idp-metadata';
import { normalizeCertificate } from '../../shared/identity/sso/saml-sp-metadata';
import type { SamlSettingsRecord } from '../../shared/store/records';

/** The SP and IdP names of the tests that feed the assertion consumer responses of their own making. */
export const PUBLIC_URL = 'https://tessera.test';
export const SLUG = 'acme';
export const ACS = `${PUBLIC_URL}/v1/auth/sso/${SLUG}/callback`;
export const SP_ENTITY = `${PUBLIC_URL}/v1/auth/sso/${SLUG}/metadata`;
export const IDP_ENTITY = 'https://idp.test/entity';
export const REQUEST_ID = '_request-0001';

export interface SigningIdentity {
  privateKey: string;
  cert: string;
  /** The certificate body (base64 DER), as metadata and KeyInfo carry it. */
  certBody: string;
}

export function signingIdentity(commonName = 'test-idp'): SigningIdentity {
  const now = new Date();
  const made = selfSignedCertificate({ commonName, notBefore: new Date(now.getTime() - 86_400_000), notAfter: new Date(now.getTime() + 365 * 86_400_000) });
  const certBody = made.der.toString('base64');
  return { privateKey: made.privateKeyPem, cert: `-----BEGIN CERTIFICATE-----\n${certBody.replace(/(.{64})/g, '$1\n').trim()}\n-----END CERTIFICATE-----\n`, certBody };
}

/** Signs the element of `xml` that `reference` (an XPath) points to, as an IdP does, the signature placed after the element `placeAfter` points to. */
export function signSamlXml(key: SigningIdentity, xml: string, reference: string, placeAfter: string): string {
  return samlify.SamlLib.constructSAMLSignature({
    rawSamlMessage: xml,
    referenceTagXPath: reference,
    privateKey: key.privateKey,
    privateKeyPass: '',
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    signingCert: key.certBody,
    isBase64Output: false,
    signatureConfig: { prefix: 'ds', location: { reference: placeAfter, action: 'after' } },
  });
}

/** An IdP's stored SAML settings as a tenant configures them (no SP key: the tests that use it make no AuthnRequest). */
export function samlSettingsRecord(input: { metadata: string; entityId: string; ssoUrl: string; certBody: string }): SamlSettingsRecord {
  return {
    metadata: input.metadata,
    entity_id: input.entityId,
    sso_url: input.ssoUrl,
    signing_certificates: [input.certBody],
    want_authn_requests_signed: false,
    sp_certificate: '',
    sp_private_key_encrypted: '',
    sp_private_key_kms_key_id: '',
  };
}

export function idpMetadataXml(input: { entityId: string; ssoUrl: string; certBody: string; wantAuthnRequestsSigned?: boolean }): string {
  return `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${input.entityId}">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="${input.wantAuthnRequestsSigned ? 'true' : 'false'}" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing">
      <ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${input.certBody}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>
    </md:KeyDescriptor>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${input.ssoUrl}"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${input.ssoUrl}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
}

/**
 * IdP metadata as samlify reads it, in the shape of saml-idp-metadata.ts `parseIdpMetadata`: the
 * assertion consumer verifies signatures with samlify's reading of the stored metadata, so the
 * tests hold Tessera's own reading to the same values.
 */
export function samlifyReading(xml: string): IdpMetadata {
  const metadata = samlify.IdPMetadata(xml);
  const signing: unknown = metadata.getX509Certificate('signing');
  const certificates = (Array.isArray(signing) ? signing.flat(Infinity) : [signing]).filter((c): c is string => typeof c === 'string').map(normalizeCertificate);
  return {
    entity_id: metadata.getEntityID(),
    sso_url: metadata.getSingleSignOnService('redirect') as string,
    signing_certificates: [...new Set(certificates)],
    want_authn_requests_signed: metadata.isWantAuthnRequestsSigned(),
  };
}
