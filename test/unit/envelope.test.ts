/**
 * The envelope crypto through both keyrings it is built with: the raw AES keyring of local
 * mode, and the KMS keyring of AWS against a local KMS (test/support/fake-kms.ts) through the
 * bare KMS client the stack ships. A ciphertext opens only for the object it was made for.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KMSClient } from '@aws-sdk/client-kms';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EncryptionContextMismatchError, envelopeOf, loadEnvelopeCrypto, type EnvelopeCrypto } from '../../shared/crypto/envelope';
import { createEnvelopeCrypto, kmsKeyring } from '../../shared/crypto/envelope-encryption-sdk';
import { createDeps } from '../../shared/deps';
import { loadConfig } from '../../shared/config';
import { startFakeKms, type FakeKms } from '../support/fake-kms';

const context = { tenant_id: 'ten_a', workspace_id: 'ws_a', connection_id: 'conn_a' };

async function expectRoundTrip(envelope: EnvelopeCrypto) {
  const ciphertext = await envelope.encrypt('{"client_secret":"s3cret"}', context);
  expect(ciphertext).not.toContain('s3cret');
  expect(Buffer.from(ciphertext, 'base64').toString('latin1')).not.toContain('s3cret');
  expect(await envelope.decrypt(ciphertext, context)).toBe('{"client_secret":"s3cret"}');
  await expect(envelope.decrypt(ciphertext, { ...context, connection_id: 'conn_b' })).rejects.toBeInstanceOf(EncryptionContextMismatchError);
  const tampered = Buffer.from(ciphertext, 'base64');
  tampered[tampered.length - 40]! ^= 1;
  await expect(envelope.decrypt(tampered.toString('base64'), context)).rejects.toThrow();
}

describe('envelope crypto', () => {
  let kms: FakeKms;
  beforeAll(async () => {
    kms = await startFakeKms();
  });
  afterAll(() => kms.close());

  it('seals and opens with the local raw AES keyring, bound to its object', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'tessera-envelope-')), 'envelope-key.json');
    const envelope = await loadEnvelopeCrypto({ envelopeKey: { kind: 'file', path: file }, region: 'eu-west-1' });
    expect(envelope.keyId).toMatch(/^local:local-[0-9a-f]{8}$/);
    await expectRoundTrip(envelope);
    // The same key file opens what another process sealed.
    const again = await loadEnvelopeCrypto({ envelopeKey: { kind: 'file', path: file }, region: 'eu-west-1' });
    expect(await again.decrypt(await envelope.encrypt('x', context), context)).toBe('x');
  });

  it('seals and opens with the KMS keyring over the bare KMS client: one GenerateDataKey to seal, one Decrypt to open', async () => {
    const client = new KMSClient({ region: 'eu-west-1', endpoint: kms.endpoint, credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'example' } });
    const envelope = createEnvelopeCrypto(kmsKeyring(kms.keyArn, 'eu-west-1', client), kms.keyArn);
    kms.calls.length = 0;
    const ciphertext = await envelope.encrypt('totp secret', context);
    expect(kms.calls).toEqual(['GenerateDataKey']);
    expect(await envelope.decrypt(ciphertext, context)).toBe('totp secret');
    expect(kms.calls).toEqual(['GenerateDataKey', 'Decrypt']);
    await expectRoundTrip(envelope);
  });

  it('refuses to seal under a key KMS does not have', async () => {
    const client = new KMSClient({ region: 'eu-west-1', endpoint: kms.endpoint, credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'example' } });
    const wrongKey = kms.keyArn.replace(/.$/, '2');
    const envelope = createEnvelopeCrypto(kmsKeyring(wrongKey, 'eu-west-1', client), wrongKey);
    await expect(envelope.encrypt('x', context)).rejects.toThrow(/does not exist/);
  });

  it('is loaded once per deps, on first use, and a failed load is tried again', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tessera-envelope-'));
    // A file where the key directory should be: the first load fails.
    writeFileSync(path.join(dataDir, 'keys'), 'not a directory');
    const deps = await createDeps(loadConfig({ TESSERA_DATA_DIR: dataDir, TESSERA_TABLE: 'unused', DYNAMODB_ENDPOINT: 'http://127.0.0.1:1' }));
    await expect(envelopeOf(deps)).rejects.toThrow();
    rmSync(path.join(dataDir, 'keys'));
    const first = await envelopeOf(deps);
    expect(await envelopeOf(deps)).toBe(first);
    expect(first.keyId).toMatch(/^local:/);
  });
});
