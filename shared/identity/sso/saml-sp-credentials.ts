/**
 * Tessera's SAML signing credential per tenant: an RSA key pair and a self-signed certificate
 * (the usual form of SAML metadata keys), made when the tenant first configures SAML. The
 * certificate goes into the SP metadata; the private key, envelope-encrypted, signs the
 * AuthnRequests of IdPs that want them signed.
 */
import type { Deps } from '../../deps';
import { encryptionContext } from '../../crypto/encryption-contexts';
import { envelopeOf } from '../../crypto/envelope';
import { selfSignedCertificate } from '../../crypto/self-signed-certificate';
import type { SamlSettingsRecord } from '../../store/records';

const VALIDITY_YEARS = 10;

export type SpCredential = Pick<SamlSettingsRecord, 'sp_certificate' | 'sp_private_key_encrypted' | 'sp_private_key_kms_key_id'>;

/** The encryption context of Tessera's SAML signing key of a tenant. */
export async function newSpCredential(deps: Deps, tenantId: string, tenantSlug: string): Promise<SpCredential> {
  const now = deps.clock.now();
  const notAfter = new Date(now);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + VALIDITY_YEARS);
  const credential = selfSignedCertificate({ commonName: `Tessera SAML SP ${tenantSlug}`, notBefore: now, notAfter });
  const envelope = await envelopeOf(deps);
  return {
    sp_certificate: credential.der.toString('base64'),
    sp_private_key_encrypted: await envelope.encrypt(credential.privateKeyPem, encryptionContext('saml_sp_signing_key', { tenant_id: tenantId })),
    sp_private_key_kms_key_id: envelope.keyId,
  };
}
