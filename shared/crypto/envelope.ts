/**
 * Envelope encryption of secrets at rest (connection configurations, TOTP secrets, IdP client
 * secrets, SAML SP keys, PKCE verifiers): what use cases see of it.
 *
 * Use cases reach it through `envelopeOf(deps)`, never through a field of `Deps` built at cold
 * start: only the functions whose code imports this module bundle the Encryption SDK behind it
 * (`envelope-encryption-sdk.ts`), and they build the keyring (a key file read, a KMS client)
 * when a request first encrypts or decrypts. The SDK is imported statically on purpose: an
 * `import()` of it made esbuild keep modules it otherwise drops (the issuers' signing-seed
 * reader ended up in non-issuing functions; test/infra/handler-capabilities.test.ts).
 */
import { createKmsClient } from '../aws/kms-client';
import type { Config } from '../config';
import type { Deps, DepsPart } from '../deps';
import { createEnvelopeCrypto, kmsKeyring, localKeyring, type EnvelopeCrypto } from './envelope-encryption-sdk';
import { ExpiringValue } from './expiring-value';

export { EncryptionContextMismatchError, type EncryptionContext, type EnvelopeCrypto } from './envelope-encryption-sdk';

export async function loadEnvelopeCrypto(config: Pick<Config, 'envelopeKey' | 'region'> & { awsEndpoints: Pick<Config['awsEndpoints'], 'kms'> }): Promise<EnvelopeCrypto> {
  const source = config.envelopeKey;
  if (source.kind === 'kms') {
    const kms = createKmsClient({ region: config.region, endpoint: config.awsEndpoints.kms });
    return createEnvelopeCrypto(kmsKeyring(source.keyArn, kms), source.keyArn);
  }
  const { keyring, keyName } = await localKeyring(source.path);
  return createEnvelopeCrypto(keyring, `local:${keyName}`);
}

/** Made on first use and kept for the life of the deps; a failed load is not kept, the next use tries again. */
const ENVELOPE_CRYPTO: DepsPart<ExpiringValue<EnvelopeCrypto>> = {
  name: 'envelope-crypto',
  create: (deps) => new ExpiringValue(() => loadEnvelopeCrypto(deps.config), deps.clock, Number.POSITIVE_INFINITY),
};

/** The envelope crypto of these deps, loaded on first use. */
export function envelopeOf(deps: Pick<Deps, 'part'>): Promise<EnvelopeCrypto> {
  return deps.part(ENVELOPE_CRYPTO).get();
}
