/**
 * Envelope encryption of secrets at rest (connection configurations, TOTP secrets, IdP client
 * secrets, SAML SP keys, PKCE verifiers): what use cases see of it.
 *
 * Use cases reach it through `envelopeOf(deps)`, never through a field of `Deps` built at cold
 * start, and the Encryption SDK behind it (`envelope-encryption-sdk.ts`) is imported on first
 * use: only the functions whose code imports this module bundle the SDK, and they load it
 * when a request first encrypts or decrypts (some never do: a backup-code MFA answer, a
 * connection edit that leaves the configuration alone).
 */
import type { Config } from '../config';
import type { LazyResources } from '../lazy-resources';

export type EncryptionContext = Record<string, string>;

export interface EnvelopeCrypto {
  /** The key that protects new ciphertexts (KMS key ARN, or the local key's name). */
  readonly keyId: string;
  encrypt(plaintext: string, context: EncryptionContext): Promise<string>;
  decrypt(ciphertext: string, expectedContext: EncryptionContext): Promise<string>;
}

export class EncryptionContextMismatchError extends Error {
  constructor() {
    super('The ciphertext belongs to another object');
    this.name = 'EncryptionContextMismatchError';
  }
}

/** The name of the envelope crypto among the lazily loaded resources of `Deps`. */
export const ENVELOPE_RESOURCE = 'envelope-crypto';

export async function loadEnvelopeCrypto(config: Pick<Config, 'envelopeKey' | 'region'>): Promise<EnvelopeCrypto> {
  const { createEnvelopeCrypto, kmsKeyring, localKeyring } = await import('./envelope-encryption-sdk');
  const source = config.envelopeKey;
  if (source.kind === 'kms') return createEnvelopeCrypto(kmsKeyring(source.keyArn, config.region), source.keyArn);
  const { keyring, keyName } = await localKeyring(source.path);
  return createEnvelopeCrypto(keyring, `local:${keyName}`);
}

/** The envelope crypto of these deps, loaded on first use and kept for their life. */
export function envelopeOf(deps: { config: Pick<Config, 'envelopeKey' | 'region'>; lazy: LazyResources }): Promise<EnvelopeCrypto> {
  return deps.lazy.get(ENVELOPE_RESOURCE, () => loadEnvelopeCrypto(deps.config));
}
