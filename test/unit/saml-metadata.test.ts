/**
 * IdP metadata as an admin pastes it (`saml_metadata` of the IdP configuration): what is read
 * of it, and the refusal, naming the field, of metadata that lacks what a login needs.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { parseIdpMetadata } from '../../shared/identity/sso/saml-metadata';
import { ValidationError } from '../../shared/errors';
import { idpMetadataXml, signingIdentity, type SigningIdentity } from '../support/saml-idp';

let current: SigningIdentity;
let next: SigningIdentity;
const base = { entityId: 'https://idp.example.com/metadata', ssoUrl: 'https://idp.example.com/sso' };

beforeAll(async () => {
  [current, next] = await Promise.all([signingIdentity('current'), signingIdentity('next')]);
});

function refusal(xml: string): string {
  try {
    parseIdpMetadata(xml);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    const [first] = (error as ValidationError).errors ?? [];
    expect(first?.path).toBe('saml_metadata');
    return first!.message;
  }
  throw new Error('the metadata was accepted');
}

describe('IdP metadata', () => {
  it('reads the entity id, the redirect binding\'s URL and the signing certificate', () => {
    expect(parseIdpMetadata(idpMetadataXml({ ...base, certBody: current.certBody, wantAuthnRequestsSigned: true }))).toEqual({
      entity_id: base.entityId, sso_url: base.ssoUrl, signing_certificates: [current.certBody], want_authn_requests_signed: true,
    });
  });

  it('keeps both signing certificates of an IdP in the middle of a rotation', () => {
    const xml = idpMetadataXml({ ...base, certBody: current.certBody }).replace(
      '<md:NameIDFormat>',
      `<md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${next.certBody}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>\n    <md:NameIDFormat>`,
    );
    expect(parseIdpMetadata(xml).signing_certificates).toEqual([current.certBody, next.certBody]);
  });

  it('refuses metadata without an entityID, a redirect binding or a signing certificate', () => {
    const good = idpMetadataXml({ ...base, certBody: current.certBody });
    expect(refusal(good.replace(`entityID="${base.entityId}"`, 'entityID=""'))).toBe('has no entityID');
    expect(refusal(good.replace(/<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"[^>]*\/>/, ''))).toBe('has no SingleSignOnService for the HTTP-Redirect binding');
    expect(refusal(good.replace(/<md:KeyDescriptor use="signing">[\s\S]*<\/md:KeyDescriptor>/, ''))).toBe('has no signing certificate (KeyDescriptor use="signing")');
  });
});
