/**
 * The three AWS KMS operations the Encryption SDK's KMS keyring calls (GenerateDataKey, Encrypt,
 * Decrypt), over KMS's AWS JSON 1.1 protocol (`TrentService.<Operation>`, SigV4 with service
 * `kms`), with the inputs and outputs the keyring reads as the SDK's `KMS` class gives them:
 * blobs (`Plaintext`, `CiphertextBlob`) travel as base64 strings and are `Uint8Array`s here
 * (the JSON client encodes those sent; those answered are decoded below),
 * the key's ARN comes back in `KeyId`. Errors are `AwsServiceError`s named as KMS names them
 * (`AccessDeniedException`, `InvalidCiphertextException`, `NotFoundException`…).
 */
import { createAwsJsonClient } from './aws-json-client';
import type { AwsServiceOptions } from './signed-request';

type EncryptionContext = Record<string, string>;

export interface KmsGenerateDataKeyInput {
  KeyId: string;
  NumberOfBytes?: number;
  EncryptionContext?: EncryptionContext;
  GrantTokens?: string[];
}
export interface KmsEncryptInput {
  KeyId: string;
  Plaintext: Uint8Array;
  EncryptionContext?: EncryptionContext;
  GrantTokens?: string[];
}
export interface KmsDecryptInput {
  CiphertextBlob: Uint8Array;
  /** The key the blob must be of (KMS refuses another with `IncorrectKeyException`). */
  KeyId?: string;
  EncryptionContext?: EncryptionContext;
  GrantTokens?: string[];
}

export interface KmsClient {
  generateDataKey(input: KmsGenerateDataKeyInput): Promise<{ KeyId: string; Plaintext: Uint8Array; CiphertextBlob: Uint8Array }>;
  encrypt(input: KmsEncryptInput): Promise<{ KeyId: string; CiphertextBlob: Uint8Array }>;
  decrypt(input: KmsDecryptInput): Promise<{ KeyId: string; Plaintext: Uint8Array }>;
}

/** What KMS answered, each member checked: an answer without one is an error, not an empty key. */
function member(out: Record<string, unknown>, operation: string, name: string): string {
  const value = out[name];
  if (typeof value !== 'string' || value === '') throw new Error(`KMS answered ${operation} without ${name}`);
  return value;
}
/** A blob member as the SDK deserialises it: a view of the decoded bytes (the keyring copies it, then zeroes it). */
function blob(out: Record<string, unknown>, operation: string, name: string): Uint8Array {
  const bytes = Buffer.from(member(out, operation, name), 'base64');
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function createKmsClient(options: AwsServiceOptions): KmsClient {
  const kms = createAwsJsonClient({ service: 'kms', targetPrefix: 'TrentService', jsonVersion: '1.1', tracedName: 'KMS' }, options);
  return {
    async generateDataKey(input) {
      const out = await kms.call('GenerateDataKey', input);
      return { KeyId: member(out, 'GenerateDataKey', 'KeyId'), Plaintext: blob(out, 'GenerateDataKey', 'Plaintext'), CiphertextBlob: blob(out, 'GenerateDataKey', 'CiphertextBlob') };
    },
    async encrypt(input) {
      const out = await kms.call('Encrypt', input);
      return { KeyId: member(out, 'Encrypt', 'KeyId'), CiphertextBlob: blob(out, 'Encrypt', 'CiphertextBlob') };
    },
    async decrypt(input) {
      const out = await kms.call('Decrypt', input);
      return { KeyId: member(out, 'Decrypt', 'KeyId'), Plaintext: blob(out, 'Decrypt', 'Plaintext') };
    },
  };
}
