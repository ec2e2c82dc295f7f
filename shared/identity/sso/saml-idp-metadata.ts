/**
 * IdP metadata XML → what Tessera needs of it: the entity id, the SingleSignOnService URL of
 * the HTTP-Redirect binding and the signing certificates. Parsed by samlify's own metadata
 * reader, so the login flow later reads the same values; each certificate must parse as X.509.
 */
import { X509Certificate } from 'node:crypto';
import samlify from 'samlify';
import { ValidationError } from '../../errors';
import type { SamlSettingsRecord } from '../../store/records';

const invalid = (message: string) => new ValidationError([{ path: 'saml_metadata', message }]);

const asList = (value: unknown): string[] => (Array.isArray(value) ? value.flat(Infinity).filter((v): v is string => typeof v === 'string') : typeof value === 'string' ? [value] : []);

export const normalizeCertificate = (cert: string) => cert.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');

export function parseIdpMetadata(xml: string): Pick<SamlSettingsRecord, 'entity_id' | 'sso_url' | 'signing_certificates' | 'want_authn_requests_signed'> {
  if (!/<([\w-]+:)?EntityDescriptor[\s>]/.test(xml)) throw invalid('must be SAML 2.0 IdP metadata (an EntityDescriptor)');
  let metadata: ReturnType<typeof samlify.IdPMetadata>;
  try {
    metadata = samlify.IdPMetadata(xml);
  } catch {
    throw invalid('is not well-formed SAML metadata');
  }
  const entityId = metadata.getEntityID();
  if (typeof entityId !== 'string' || entityId.length === 0) throw invalid('has no entityID');
  const sso = metadata.getSingleSignOnService('redirect');
  if (typeof sso !== 'string' || !/^https?:\/\//.test(sso)) throw invalid('has no SingleSignOnService for the HTTP-Redirect binding');
  const certificates = asList(metadata.getX509Certificate('signing')).map(normalizeCertificate).filter(Boolean);
  if (certificates.length === 0) throw invalid('has no signing certificate (KeyDescriptor use="signing")');
  for (const cert of certificates) {
    try {
      new X509Certificate(Buffer.from(cert, 'base64'));
    } catch {
      throw invalid('holds a signing certificate that is not valid X.509');
    }
  }
  return { entity_id: entityId, sso_url: sso, signing_certificates: [...new Set(certificates)], want_authn_requests_signed: metadata.isWantAuthnRequestsSigned() };
}
