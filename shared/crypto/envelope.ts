/**
 * Envelope encryption of secrets at rest (connection configurations, TOTP secrets, IdP client
 * secrets) with the AWS Encryption SDK: a KMS keyring in AWS, a raw AES keyring with a local
 * key file in local mode.
 *
 * The suite is the committing, non-signing one: the default suite adds an ECDSA P-384
 * signature (about 200 bytes and 3 ms per call) that buys nothing when the writer and the
 * reader are the same service. Decrypt does not itself compare the encryption context with
 * what the caller expects, so `decrypt` checks it: a ciphertext moved to another object fails.
 *
 * Use cases reach it through `envelopeOf(deps)`, never through a field of `Deps` built at cold
 * start: the Encryption SDK and the KMS client (~300 KiB minified, ~60 ms of module init) then
 * ship only in the functions whose code imports this module.
 */
import { randomBytes } from 'node:crypto';
import { KMS } from '@aws-sdk/client-kms';
import {
  AlgorithmSuiteIdentifier,
  CommitmentPolicy,
  KmsKeyringNode,
  RawAesKeyringNode,
  RawAesWrappingSuiteIdentifier,
  buildClient,
  type KeyringNode,
} from '@aws-crypto/client-node';
import type { Config } from '../config';
import type { LazyResources } from '../lazy-resources';
import { readOrCreateKeyFile } from './local-key-file';

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

const SUITE = AlgorithmSuiteIdentifier.ALG_AES256_GCM_IV12_TAG16_HKDF_SHA512_COMMIT_KEY;
const { encrypt, decrypt } = buildClient(CommitmentPolicy.REQUIRE_ENCRYPT_REQUIRE_DECRYPT);

export function createEnvelopeCrypto(keyring: KeyringNode, keyId: string): EnvelopeCrypto {
  return {
    keyId,
    async encrypt(plaintext, context) {
      const { result } = await encrypt(keyring, plaintext, { suiteId: SUITE, encryptionContext: context });
      return result.toString('base64');
    },
    async decrypt(ciphertext, expectedContext) {
      const { plaintext, messageHeader } = await decrypt(keyring, Buffer.from(ciphertext, 'base64'));
      const actual = messageHeader.encryptionContext;
      for (const [name, value] of Object.entries(expectedContext)) {
        if (actual[name] !== value) throw new EncryptionContextMismatchError();
      }
      return plaintext.toString('utf8');
    },
  };
}

interface LocalKeyFile {
  keyName: string;
  key: string;
}

export async function loadEnvelopeCrypto(config: Pick<Config, 'envelopeKey' | 'region'>): Promise<EnvelopeCrypto> {
  const source = config.envelopeKey;
  if (source.kind === 'kms') {
    // The keyring wants the aggregated KMS class, not the bare client.
    const kms = new KMS({ region: config.region });
    const keyring = new KmsKeyringNode({ generatorKeyId: source.keyArn, clientProvider: () => kms });
    return createEnvelopeCrypto(keyring, source.keyArn);
  }
  const file = await readOrCreateKeyFile<LocalKeyFile>(source.path, () => ({
    keyName: `local-${randomBytes(4).toString('hex')}`,
    key: randomBytes(32).toString('base64'),
  }));
  const keyring = new RawAesKeyringNode({
    keyNamespace: 'tessera-local',
    keyName: file.keyName,
    unencryptedMasterKey: new Uint8Array(Buffer.from(file.key, 'base64')),
    wrappingSuite: RawAesWrappingSuiteIdentifier.AES256_GCM_IV12_TAG16_NO_PADDING,
  });
  return createEnvelopeCrypto(keyring, `local:${file.keyName}`);
}

/** The name of the envelope crypto among the lazily loaded resources of `Deps`. */
export const ENVELOPE_RESOURCE = 'envelope-crypto';

/** The envelope crypto of these deps, loaded on first use and kept for their life. */
export function envelopeOf(deps: { config: Pick<Config, 'envelopeKey' | 'region'>; lazy: LazyResources }): Promise<EnvelopeCrypto> {
  return deps.lazy.get(ENVELOPE_RESOURCE, () => loadEnvelopeCrypto(deps.config));
}
