/**
 * IdP metadata → the SAML settings Tessera keeps (shared/identity/sso/saml-idp-metadata.ts): each
 * refusal names what is missing, under `saml_metadata`; certificates are normalized and
 * deduplicated, whichever way the metadata writes them.
 */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../shared/errors';
import { parseIdpMetadata } from '../../shared/identity/sso/saml-idp-metadata';
import { idpMetadataXml, samlifyReading, signingIdentity, type SigningIdentity } from '../support/saml-idp';

const ENTITY = 'https://idp.test/entity';
const SSO = 'https://idp.test/sso';
const key: SigningIdentity = signingIdentity('metadata-idp');
const other: SigningIdentity = signingIdentity('metadata-idp-next');

const keyDescriptor = (certificate: string, use = 'signing') =>
  `<md:KeyDescriptor use="${use}"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${certificate}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`;

function metadataXml(o: { entityId?: string; keys?: string; sso?: string; wantSigned?: boolean } = {}): string {
  return (
    `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata"${o.entityId === undefined ? ` entityID="${ENTITY}"` : o.entityId}>` +
    `<md:IDPSSODescriptor WantAuthnRequestsSigned="${o.wantSigned ? 'true' : 'false'}" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
    `${o.keys ?? keyDescriptor(key.certBody)}` +
    `${o.sso ?? `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${SSO}"/>`}` +
    `</md:IDPSSODescriptor></md:EntityDescriptor>`
  );
}

function refusal(xml: string): string | undefined {
  try {
    parseIdpMetadata(xml);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    const errors = (error as ValidationError).errors;
    expect(errors?.map((e) => e.path)).toEqual(['saml_metadata']);
    return errors?.[0]?.message;
  }
  return undefined;
}

describe('IdP metadata', () => {
  it('reads the entity id, the HTTP-Redirect SSO URL, the signing certificate and whether requests must be signed', () => {
    expect(parseIdpMetadata(idpMetadataXml({ entityId: ENTITY, ssoUrl: SSO, certBody: key.certBody, wantAuthnRequestsSigned: true }))).toEqual({
      entity_id: ENTITY,
      sso_url: SSO,
      signing_certificates: [key.certBody],
      want_authn_requests_signed: true,
    });
  });

  it('normalizes PEM armour and line breaks, keeps each certificate once, in order (a rollover lists two)', () => {
    const wrapped = `-----BEGIN CERTIFICATE-----\n${key.certBody.replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE-----`;
    const keys = keyDescriptor(wrapped) + keyDescriptor(key.certBody) + keyDescriptor(other.certBody) + keyDescriptor(other.certBody, 'encryption');
    expect(parseIdpMetadata(metadataXml({ keys })).signing_certificates).toEqual([key.certBody, other.certBody]);
  });

  it('refuses what is not IdP metadata, or does not parse', () => {
    expect(refusal('<html><body>Sign in</body></html>')).toBe('must be SAML 2.0 IdP metadata (an EntityDescriptor)');
    expect(refusal(metadataXml().replace('</md:EntityDescriptor>', '</md:Other>'))).toBe('is not well-formed SAML metadata');
  });

  it('refuses metadata without an entityID, without an HTTP-Redirect SingleSignOnService, or with a non-URL one', () => {
    expect(refusal(metadataXml({ entityId: '' }))).toBe('has no entityID');
    const post = `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${SSO}"/>`;
    expect(refusal(metadataXml({ sso: post }))).toBe('has no SingleSignOnService for the HTTP-Redirect binding');
    expect(refusal(metadataXml({ sso: '<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="javascript:alert(1)"/>' }))).toBe(
      'has no SingleSignOnService for the HTTP-Redirect binding',
    );
  });

  it('refuses metadata without a signing certificate, or with one that is not X.509', () => {
    expect(refusal(metadataXml({ keys: '' }))).toBe('has no signing certificate (KeyDescriptor use="signing")');
    expect(refusal(metadataXml({ keys: keyDescriptor(Buffer.from('not a certificate').toString('base64')) }))).toBe('holds a signing certificate that is not valid X.509');
  });

  it('reads what samlify reads of the same metadata (the assertion consumer verifies with samlify\'s reading)', () => {
    const pem = `-----BEGIN CERTIFICATE-----\n${key.certBody.replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE-----`;
    const noUse = `<md:KeyDescriptor><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${key.certBody}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`;
    const redirectAfterPost = `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${SSO}/post"/><md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${SSO}?realm=a&amp;b=c"/>`;
    const documents = [
      idpMetadataXml({ entityId: ENTITY, ssoUrl: SSO, certBody: key.certBody, wantAuthnRequestsSigned: true }),
      idpMetadataXml({ entityId: ENTITY, ssoUrl: SSO, certBody: key.certBody }),
      idpMetadataXml({ entityId: ENTITY, ssoUrl: SSO, certBody: key.certBody }).replace(' WantAuthnRequestsSigned="false"', ''),
      metadataXml({ keys: keyDescriptor(pem) + keyDescriptor(other.certBody) + keyDescriptor(other.certBody, 'encryption') }),
      metadataXml({ keys: noUse }),
      metadataXml({ keys: keyDescriptor(other.certBody, 'encryption') + keyDescriptor(key.certBody), sso: redirectAfterPost, wantSigned: true }),
    ];
    for (const xml of documents) expect(parseIdpMetadata(xml)).toEqual(samlifyReading(xml));
  });
});
