/**
 * The envelope crypto of local mode (the raw AES keyring and its key file), and how deps load
 * it. The KMS keyring of the aws stage, through the real KMS client against a local KMS, is in
 * test/peers/aws-stage-clients.test.ts. A ciphertext opens only for the object it was made for.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EncryptionContextMismatchError, envelopeOf, loadEnvelopeCrypto, type EnvelopeCrypto } from '../../shared/crypto/envelope';
import { createDeps } from '../../functions/start/deps-assembly';
import { loadConfig } from '../../shared/config';

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
  it('seals and opens with the local raw AES keyring, bound to its object', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'tessera-envelope-')), 'envelope-key.json');
    const envelope = await loadEnvelopeCrypto({ envelopeKey: { kind: 'file', path: file }, region: 'eu-west-1', awsEndpoints: { kms: undefined } });
    expect(envelope.keyId).toMatch(/^local:local-[0-9a-f]{8}$/);
    await expectRoundTrip(envelope);
    // The same key file opens what another process sealed.
    const again = await loadEnvelopeCrypto({ envelopeKey: { kind: 'file', path: file }, region: 'eu-west-1', awsEndpoints: { kms: undefined } });
    expect(await again.decrypt(await envelope.encrypt('x', context), context)).toBe('x');
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
