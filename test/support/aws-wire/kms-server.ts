/**
 * A local AWS KMS for the Encryption SDK's KMS keyring, over KMS's wire protocol (AWS JSON 1.1,
 * `X-Amz-Target: TrentService.<Operation>`, blobs base64 in JSON, SigV4 with service `kms`).
 *
 * What it reproduces of the KMS API reference:
 * - GenerateDataKey (`NumberOfBytes` or `KeySpec`), Encrypt and Decrypt of a symmetric key,
 *   answered with the key's ARN in `KeyId`.
 * - The ciphertext blob names its key (Decrypt needs no `KeyId`) and is bound to the encryption
 *   context it was made with: Decrypt under any other context, or of a blob altered or made
 *   elsewhere, is 400 `InvalidCiphertextException` ("the specified ciphertext, or additional
 *   authenticated data incorporated into the ciphertext, such as the encryption context, is
 *   corrupted, missing, or otherwise invalid"). A `KeyId` on Decrypt that is not the blob's key
 *   is `IncorrectKeyException`; an unknown key on GenerateDataKey/Encrypt is `NotFoundException`.
 * - Authorization before anything is decrypted, on the key ARN with the condition keys
 *   `kms:EncryptionContextKeys` and `kms:EncryptionContext:<key>` ("kms:EncryptionContext
 *   condition keys"): a call the caller's policy does not allow is 400 `AccessDeniedException`
 *   with AWS's "User: … is not authorized to perform: kms:Decrypt on resource: …" message.
 * The blob is this server's own AES-256-GCM sealing under a key it holds, as opaque as KMS's.
 */
import { createCipheriv, createDecipheriv, randomBytes, randomUUID } from 'node:crypto';
import { startLocalServer } from '../../../infra/local/stand-ins/local-server';
import { CALLER_ARN, TEST_ACCOUNT, TEST_REGION } from './caller';
import { ALLOW_ALL, isAllowed, notAuthorizedMessage, type IamStatement } from './iam-policy';
import { answerJsonRequest, AwsJsonError, stringMember } from './json-protocol';

export interface KmsCall {
  operation: string;
  keyId: string | undefined;
  encryptionContext: Record<string, string> | undefined;
}

export interface KmsServer {
  /** For `AWS_ENDPOINT_URL_KMS` (or a client's `endpoint`). */
  endpoint: string;
  /** The key the server made at start. */
  keyArn: string;
  /** Every authenticated call, in order. */
  calls: KmsCall[];
  /** The caller's identity policy; everything is allowed until a test sets another. */
  policy: IamStatement[];
  /** One more key of the account (a second envelope key, a key of another deployment). */
  createKey(): string;
  close(): Promise<void>;
}

const BLOB_MAGIC = Buffer.from('TKMS');

/** The context as authenticated data: order-insensitive, as KMS compares contexts. */
const additionalData = (keyArn: string, context: Record<string, string> | undefined) =>
  Buffer.from(JSON.stringify([keyArn, Object.entries(context ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]));

const invalidCiphertext = () => new AwsJsonError({ status: 400, type: 'InvalidCiphertextException', message: '' });

export async function startKmsServer(region = TEST_REGION): Promise<KmsServer> {
  const keys = new Map<string, Buffer>();
  const createKey = () => {
    const arn = `arn:aws:kms:${region}:${TEST_ACCOUNT}:key/${randomUUID()}`;
    keys.set(arn, randomBytes(32));
    return arn;
  };
  const keyArn = createKey();

  const seal = (arn: string, plaintext: Buffer, context: Record<string, string> | undefined) => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', keys.get(arn)!, iv).setAAD(additionalData(arn, context));
    const sealed = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    const arnBytes = Buffer.from(arn);
    const length = Buffer.alloc(2);
    length.writeUInt16BE(arnBytes.length);
    return Buffer.concat([BLOB_MAGIC, length, arnBytes, iv, cipher.getAuthTag(), sealed]).toString('base64');
  };
  /** The key a blob names, or undefined for anything this KMS did not make. */
  const blobKey = (blob: Buffer) => {
    if (blob.length < 6 || !blob.subarray(0, 4).equals(BLOB_MAGIC)) return undefined;
    const arn = blob.subarray(6, 6 + blob.readUInt16BE(4)).toString();
    return keys.has(arn) ? arn : undefined;
  };
  const open = (arn: string, blob: Buffer, context: Record<string, string> | undefined) => {
    const at = 6 + blob.readUInt16BE(4);
    try {
      const decipher = createDecipheriv('aes-256-gcm', keys.get(arn)!, blob.subarray(at, at + 12)).setAAD(additionalData(arn, context));
      decipher.setAuthTag(blob.subarray(at + 12, at + 28));
      return Buffer.concat([decipher.update(blob.subarray(at + 28)), decipher.final()]);
    } catch {
      throw invalidCiphertext();
    }
  };

  const server: KmsServer = {
    endpoint: '',
    keyArn,
    calls: [],
    policy: ALLOW_ALL,
    createKey,
    close: () => Promise.resolve(),
  };

  const authorize = (action: string, arn: string, context: Record<string, string> | undefined) => {
    const conditionKeys: Record<string, string | string[]> = { 'kms:CallerAccount': TEST_ACCOUNT };
    if (context && Object.keys(context).length > 0) conditionKeys['kms:EncryptionContextKeys'] = Object.keys(context);
    for (const [name, value] of Object.entries(context ?? {})) conditionKeys[`kms:EncryptionContext:${name}`] = value;
    if (!isAllowed(server.policy, action, arn, conditionKeys)) {
      throw new AwsJsonError({ status: 400, type: 'AccessDeniedException', message: notAuthorizedMessage(CALLER_ARN, action, arn) });
    }
  };
  /** A key named by the request (ARN or key id); unknown ones are NotFoundException, as at KMS. */
  const namedKey = (keyId: unknown) => {
    const arn = [...keys.keys()].find((candidate) => candidate === keyId || candidate.endsWith(`:key/${String(keyId)}`));
    if (!arn) throw new AwsJsonError({ status: 400, type: 'NotFoundException', message: `Key '${String(keyId)}' does not exist` });
    return arn;
  };

  const local = await startLocalServer((request) =>
    answerJsonRequest(request, { version: '1.1', targetPrefix: 'TrentService', signingName: 'kms', region }, ({ operation, input }) => {
      const context = input.EncryptionContext as Record<string, string> | undefined;
      server.calls.push({ operation, keyId: input.KeyId as string | undefined, encryptionContext: context });
      if (operation === 'GenerateDataKey') {
        const arn = namedKey(input.KeyId);
        authorize('kms:GenerateDataKey', arn, context);
        const bytes = input.NumberOfBytes !== undefined ? Number(input.NumberOfBytes) : input.KeySpec === 'AES_128' ? 16 : 32;
        if (!Number.isInteger(bytes) || bytes < 1 || bytes > 1024) throw new AwsJsonError({ status: 400, type: 'ValidationException', message: '1 validation error detected: Value at \'numberOfBytes\' failed to satisfy constraint' });
        const dataKey = randomBytes(bytes);
        return { KeyId: arn, Plaintext: dataKey.toString('base64'), CiphertextBlob: seal(arn, dataKey, context) };
      }
      if (operation === 'Encrypt') {
        const arn = namedKey(input.KeyId);
        authorize('kms:Encrypt', arn, context);
        return { KeyId: arn, CiphertextBlob: seal(arn, Buffer.from(String(input.Plaintext), 'base64'), context), EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' };
      }
      if (operation === 'Decrypt') {
        const blob = Buffer.from(stringMember(input, 'CiphertextBlob'), 'base64');
        const arn = blobKey(blob);
        if (!arn) throw invalidCiphertext();
        if (input.KeyId !== undefined && namedKey(input.KeyId) !== arn) {
          throw new AwsJsonError({ status: 400, type: 'IncorrectKeyException', message: 'The key ID in the request does not identify a KMS key that can perform this operation.' });
        }
        authorize('kms:Decrypt', arn, context);
        return { KeyId: arn, Plaintext: open(arn, blob, context).toString('base64'), EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' };
      }
      throw new AwsJsonError({ status: 400, type: 'UnknownOperationException', message: `TrentService.${operation} is not reproduced here` });
    }),
  );
  server.endpoint = local.url;
  server.close = () => local.close();
  return server;
}
