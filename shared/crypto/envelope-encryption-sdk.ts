/**
 * The AWS Encryption SDK behind `envelope.ts`: a KMS keyring in AWS, a raw AES keyring with a
 * local key file in local mode.
 *
 * The suite is the committing, non-signing one: the default suite adds an ECDSA P-384
 * signature (about 200 bytes and 3 ms per call) that buys nothing when the writer and the
 * reader are the same service. Decrypt does not itself compare the encryption context with
 * what the caller expects, so `decrypt` checks it: a ciphertext moved to another object fails.
 *
 * Imported from the SDK's own packages rather than the `@aws-crypto/client-node` barrel: the
 * barrel is CommonJS that requires every keyring, the caching materials manager and the branch
 * key store (with the whole DynamoDB and KMS clients), none of which Tessera uses and none of
 * which a bundler can drop (~300 KiB minified of the ~700 the barrel weighs). KMS itself is
 * reached through Tessera's small client of the three operations a keyring sends
 * (`shared/aws/kms-client.ts`), not `@aws-sdk/client-kms`, whose runtime weighed more than
 * the rest of the envelope code (docs/benchmarks.md, cold starts).
 */
import { randomBytes } from 'node:crypto';
import { buildDecrypt } from '@aws-crypto/decrypt-node';
import { buildEncrypt } from '@aws-crypto/encrypt-node';
import { KmsKeyringClass, type KmsClientSupplier } from '@aws-crypto/kms-keyring';
import { AlgorithmSuiteIdentifier, CommitmentPolicy, KeyringNode, immutableClass } from '@aws-crypto/material-management-node';
import { RawAesKeyringNode, RawAesWrappingSuiteIdentifier } from '@aws-crypto/raw-aes-keyring-node';
import type { KmsClient } from '../aws/kms-client';
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
const { encrypt } = buildEncrypt(CommitmentPolicy.REQUIRE_ENCRYPT_REQUIRE_DECRYPT);
const { decrypt } = buildDecrypt(CommitmentPolicy.REQUIRE_ENCRYPT_REQUIRE_DECRYPT);

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

/** `KmsKeyringNode` of `@aws-crypto/kms-keyring-node`, without that package's default client (the whole `KMS` class). */
class KmsKeyring extends KmsKeyringClass(KeyringNode as never) {}
immutableClass(KmsKeyring);

/**
 * A keyring of the KMS key `keyArn`: the keyring calls `generateDataKey`, `encrypt` and
 * `decrypt` on its client (the v2-style methods of the aggregated `KMS` class), which
 * `KmsClient` answers with the same shapes.
 */
export function kmsKeyring(keyArn: string, client: KmsClient): KeyringNode {
  // The supplier's type names the aggregated `KMS` class; the keyring only calls these three methods.
  const clientProvider = (() => client) as unknown as KmsClientSupplier<never>;
  return new KmsKeyring({ generatorKeyId: keyArn, clientProvider }) as unknown as KeyringNode;
}

interface LocalKeyFile {
  keyName: string;
  key: string;
}

export async function localKeyring(file: string): Promise<{ keyring: KeyringNode; keyName: string }> {
  const key = await readOrCreateKeyFile<LocalKeyFile>(file, () => ({
    keyName: `local-${randomBytes(4).toString('hex')}`,
    key: randomBytes(32).toString('base64'),
  }));
  const keyring = new RawAesKeyringNode({
    keyNamespace: 'tessera-local',
    keyName: key.keyName,
    unencryptedMasterKey: new Uint8Array(Buffer.from(key.key, 'base64')),
    wrappingSuite: RawAesWrappingSuiteIdentifier.AES256_GCM_IV12_TAG16_NO_PADDING,
  });
  return { keyring, keyName: key.keyName };
}
