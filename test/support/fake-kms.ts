/**
 * A local KMS that answers the three operations an Encryption SDK keyring sends
 * (GenerateDataKey, Encrypt, Decrypt) the way AWS KMS does over its JSON protocol
 * (`application/x-amz-json-1.1`, the operation in `X-Amz-Target: TrentService.<Operation>`,
 * blobs base64 in JSON): the answer names the key by its ARN; a ciphertext blob opens only
 * under the encryption context it was made with, otherwise 400 `InvalidCiphertextException`;
 * an unknown key is 400 `NotFoundException` (KMS API reference, "Common errors" and each
 * operation's "Errors"). The blob is this fake's own AES-GCM sealing, opaque as KMS's is.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeKms {
  endpoint: string;
  keyArn: string;
  /** Operations answered so far, in order. */
  calls: string[];
  close(): Promise<void>;
}

const contextAad = (context: Record<string, string> | undefined) =>
  Buffer.from(JSON.stringify(Object.entries(context ?? {}).sort(([a], [b]) => a.localeCompare(b))));

export async function startFakeKms(keyArn = 'arn:aws:kms:eu-west-1:111122223333:key/0b7d1f0e-0000-4000-8000-000000000001'): Promise<FakeKms> {
  const masterKey = randomBytes(32);
  const calls: string[] = [];
  const seal = (plaintext: Buffer, context: Record<string, string> | undefined) => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', masterKey, iv).setAAD(contextAad(context));
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  };
  const open = (blob: string, context: Record<string, string> | undefined) => {
    const raw = Buffer.from(blob, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', masterKey, raw.subarray(0, 12)).setAAD(contextAad(context));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const operation = String(req.headers['x-amz-target'] ?? '').replace(/^TrentService\./, '');
      calls.push(operation);
      const input = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-requestid': randomBytes(8).toString('hex') });
        res.end(JSON.stringify(body));
      };
      const context = input.EncryptionContext as Record<string, string> | undefined;
      if (operation !== 'Decrypt' && input.KeyId !== keyArn) return answer(400, { __type: 'NotFoundException', message: `Key '${String(input.KeyId)}' does not exist` });
      try {
        if (operation === 'GenerateDataKey') {
          const dataKey = randomBytes(Number(input.NumberOfBytes ?? 32));
          return answer(200, { KeyId: keyArn, Plaintext: dataKey.toString('base64'), CiphertextBlob: seal(dataKey, context) });
        }
        if (operation === 'Encrypt') return answer(200, { KeyId: keyArn, CiphertextBlob: seal(Buffer.from(String(input.Plaintext), 'base64'), context), EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' });
        if (operation === 'Decrypt') {
          if (input.KeyId !== undefined && input.KeyId !== keyArn) return answer(400, { __type: 'IncorrectKeyException', message: 'The key ID in the request does not identify a KMS key that can perform this operation.' });
          return answer(200, { KeyId: keyArn, Plaintext: open(String(input.CiphertextBlob), context).toString('base64'), EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' });
        }
        return answer(400, { __type: 'UnknownOperationException' });
      } catch {
        return answer(400, { __type: 'InvalidCiphertextException', message: null });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    keyArn,
    calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
