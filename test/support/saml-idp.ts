/**
 * A real signing SAML IdP for the tests: an RSA key pair with a self-signed X.509 certificate
 * (generated per run), its metadata XML, and samlify's IdP role to answer AuthnRequests.
 */
import { generate } from 'selfsigned';

export interface SigningIdentity {
  privateKey: string;
  cert: string;
  /** The certificate body (base64 DER), as metadata and KeyInfo carry it. */
  certBody: string;
}

export async function signingIdentity(commonName = 'test-idp'): Promise<SigningIdentity> {
  const pems = await generate([{ name: 'commonName', value: commonName }], { keySize: 2048, algorithm: 'sha256' });
  return { privateKey: pems.private, cert: pems.cert, certBody: pems.cert.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '') };
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
