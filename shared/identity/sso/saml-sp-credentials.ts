/**
 * Tessera's SAML signing credential per tenant: an RSA key pair and a self-signed certificate
 * (the usual form of SAML metadata keys), made when the tenant first configures SAML. The
 * certificate goes into the SP metadata; the private key, envelope-encrypted, signs the
 * AuthnRequests of IdPs that want them signed.
 */
import { generate } from 'selfsigned';
import type { Deps } from '../../deps';
import { envelopeOf } from '../../crypto/envelope';
import type { SamlSettingsRecord } from '../../store/records';
import { spSigningKeyContext } from './saml-entities';
import { normalizeCertificate } from './saml-metadata';

const VALIDITY_YEARS = 10;

export type SpCredential = Pick<SamlSettingsRecord, 'sp_certificate' | 'sp_private_key_encrypted' | 'sp_private_key_kms_key_id'>;

export async function newSpCredential(deps: Deps, tenantId: string, tenantSlug: string): Promise<SpCredential> {
  const now = deps.clock.now();
  const notAfter = new Date(now);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + VALIDITY_YEARS);
  const pems = await generate([{ name: 'commonName', value: `Tessera SAML SP ${tenantSlug}` }], { keyType: 'rsa', keySize: 2048, algorithm: 'sha256', notBeforeDate: now, notAfterDate: notAfter });
  const envelope = await envelopeOf(deps);
  return {
    sp_certificate: normalizeCertificate(pems.cert),
    sp_private_key_encrypted: await envelope.encrypt(pems.private, spSigningKeyContext(tenantId)),
    sp_private_key_kms_key_id: envelope.keyId,
  };
}
