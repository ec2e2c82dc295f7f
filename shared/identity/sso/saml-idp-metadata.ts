/**
 * IdP metadata XML → what Tessera keeps of it: the entity id, the SingleSignOnService URL of the
 * HTTP-Redirect binding, the signing certificates (each must parse as X.509) and whether
 * AuthnRequests must be signed.
 *
 * Read with @xmldom/xmldom alone, not samlify: samlify's entry point brings its whole login
 * machinery (XML signatures, encryption, three copies of xpath; ~500 KiB) into every function
 * that configures an IdP. The assertion consumer still verifies signatures with samlify's
 * reading of the stored metadata, so this one follows it (the EntityDescriptor at the root, the
 * KeyDescriptors of its SSO descriptors), and tests hold the two to the same values, on the
 * metadata of SimpleSAMLphp among others.
 */
import { X509Certificate } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import { ValidationError } from '../../errors';
import type { SamlSettingsRecord } from '../../store/records';
import { DSIG_NS, HTTP_REDIRECT_BINDING, METADATA_NS, normalizeCertificate } from './saml-sp-metadata';

export type IdpMetadata = Pick<SamlSettingsRecord, 'entity_id' | 'sso_url' | 'signing_certificates' | 'want_authn_requests_signed'>;

const invalid = (message: string) => new ValidationError([{ path: 'saml_metadata', message }]);

const elementsOf = (parent: Element, ns: string, localName: string): Element[] =>
  Array.from(parent.childNodes).filter((n): n is Element => n.nodeType === 1 && (n as Element).namespaceURI === ns && (n as Element).localName === localName);
// (Document and Element are the DOM lib's types, which @xmldom/xmldom's declarations use.)

/** The SSO descriptors of an entity (any element whose name holds `SSODescriptor`, as samlify reads them). */
const ssoDescriptorsOf = (entity: Element): Element[] =>
  Array.from(entity.childNodes).filter((n): n is Element => n.nodeType === 1 && (n as Element).namespaceURI === METADATA_NS && /SSODescriptor/.test((n as Element).localName ?? ''));

/** A KeyDescriptor without `use` holds a key for both signing and encryption (saml-metadata §2.4.1.1). */
function signingCertificatesOf(descriptor: Element): string[] {
  return elementsOf(descriptor, METADATA_NS, 'KeyDescriptor')
    .filter((key) => (key.getAttribute('use') || 'signing') === 'signing')
    .flatMap((key) => elementsOf(key, DSIG_NS, 'KeyInfo'))
    .flatMap((info) => elementsOf(info, DSIG_NS, 'X509Data'))
    .flatMap((data) => elementsOf(data, DSIG_NS, 'X509Certificate'))
    .map((cert) => normalizeCertificate(cert.textContent ?? ''))
    .filter(Boolean);
}

function parseMetadataDocument(xml: string): Element {
  let broken = false;
  // Any complaint of the parser, a warning too, refuses the document (as samlify's reader did).
  const doc = new DOMParser({ errorHandler: () => { broken = true; } }).parseFromString(xml, 'text/xml');
  const root = doc.documentElement;
  if (broken || !root) throw invalid('is not well-formed SAML metadata');
  if (root.namespaceURI !== METADATA_NS || root.localName !== 'EntityDescriptor') throw invalid('must be SAML 2.0 IdP metadata (an EntityDescriptor)');
  return root;
}

export function parseIdpMetadata(xml: string): IdpMetadata {
  if (!/<([\w-]+:)?EntityDescriptor[\s>]/.test(xml)) throw invalid('must be SAML 2.0 IdP metadata (an EntityDescriptor)');
  const entity = parseMetadataDocument(xml);
  const entityId = entity.getAttribute('entityID');
  if (!entityId) throw invalid('has no entityID');
  const idp = elementsOf(entity, METADATA_NS, 'IDPSSODescriptor')[0];
  const noRedirectSso = invalid('has no SingleSignOnService for the HTTP-Redirect binding');
  if (!idp) throw noRedirectSso;
  const sso = elementsOf(idp, METADATA_NS, 'SingleSignOnService').find((s) => s.getAttribute('Binding') === HTTP_REDIRECT_BINDING)?.getAttribute('Location');
  if (!sso || !/^https?:\/\//.test(sso)) throw noRedirectSso;
  const certificates = ssoDescriptorsOf(entity).flatMap(signingCertificatesOf);
  if (certificates.length === 0) throw invalid('has no signing certificate (KeyDescriptor use="signing")');
  for (const cert of certificates) {
    try {
      new X509Certificate(Buffer.from(cert, 'base64'));
    } catch {
      throw invalid('holds a signing certificate that is not valid X.509');
    }
  }
  // xs:boolean: "true" or "1".
  const wantSigned = idp.getAttribute('WantAuthnRequestsSigned');
  return { entity_id: entityId, sso_url: sso, signing_certificates: [...new Set(certificates)], want_authn_requests_signed: wantSigned === 'true' || wantSigned === '1' };
}
