/**
 * Tessera's own AWS clients (shared/aws/) against moto (5.x), a third-party emulator of AWS,
 * not the project's servers of test/support/aws-wire: what issue 27 found working against moto
 * with the SDK's clients must still work with Tessera's. The envelope crypto's KMS keyring, the
 * signing seed and its rotation and the cursor secret from Secrets Manager, the SQS run queue
 * and the SES sender, each through the production module with the configuration's endpoint,
 * and the errors callers inspect named as the SDK named them. moto tells the services apart by
 * the signature's credential scope, so a wrong signing name fails here too.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAwsJsonClient } from '../../shared/aws/aws-json-client';
import { createKmsClient } from '../../shared/aws/kms-client';
import { createAwsRequester, hostHeader } from '../../shared/aws/signed-request';
import { createSesv2Client } from '../../shared/aws/sesv2-client';
import { deriveCursorKey, loadCursorKeys } from '../../shared/crypto/cursor-keys';
import { EncryptionContextMismatchError, loadEnvelopeCrypto } from '../../shared/crypto/envelope';
import { readCurrentSigningSeed, writeCurrentSigningSeed } from '../../shared/crypto/signing-seeds';
import { createSesEmailSender } from '../../shared/email/ses-email-sender';
import { passwordResetEmail } from '../../shared/email/templates';
import { createSqsRunQueue } from '../../shared/runs/sqs-run-queue';
import { requireMoto, startMoto, type Moto } from '../support/moto';

const missing = requireMoto("Tessera's AWS clients against moto");
const REGION = 'us-east-1';

let moto: Moto;
/** A JSON-protocol client for what the test sets up (keys, secrets, queues) and reads back. */
const admin = (service: string, targetPrefix: string, jsonVersion: '1.0' | '1.1') => createAwsJsonClient({ service, targetPrefix, jsonVersion, tracedName: service }, { region: REGION, endpoint: moto.url });

beforeAll(async () => {
  if (missing) return;
  // moto accepts any keys; the clients read them from the environment, as in Lambda.
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIAMOTOTESSERA00001');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'moto-secret');
  vi.stubEnv('AWS_SESSION_TOKEN', undefined);
  moto = await startMoto();
});

afterAll(async () => {
  await moto?.close();
  vi.unstubAllEnvs();
});

describe.skipIf(missing)("Tessera's AWS clients against moto", () => {
  const context = { tenant_id: 'ten_a', workspace_id: 'ws_a', connection_id: 'conn_a' };

  it('KMS: the envelope crypto seals and opens through the keyring; KMS binds the data key to its context', async () => {
    const kms = admin('kms', 'TrentService', '1.1');
    const { KeyMetadata } = await kms.call<{ KeyMetadata: { Arn: string } }>('CreateKey', { Description: 'tessera envelope' });
    const keyArn = KeyMetadata.Arn;
    const envelope = await loadEnvelopeCrypto({ envelopeKey: { kind: 'kms', keyArn }, region: REGION, awsEndpoints: { kms: moto.url } });
    const sealed = await envelope.encrypt('{"api_token":"s3cret"}', context);
    expect(Buffer.from(sealed, 'base64').toString('latin1')).not.toContain('s3cret');
    expect(await envelope.decrypt(sealed, context)).toBe('{"api_token":"s3cret"}');
    await expect(envelope.decrypt(sealed, { ...context, connection_id: 'conn_b' })).rejects.toBeInstanceOf(EncryptionContextMismatchError);

    const client = createKmsClient({ region: REGION, endpoint: moto.url });
    const dataKey = await client.generateDataKey({ KeyId: keyArn, NumberOfBytes: 32, EncryptionContext: context });
    expect(dataKey.KeyId).toBe(keyArn);
    expect(dataKey.Plaintext).toBeInstanceOf(Uint8Array);
    expect(dataKey.Plaintext.byteLength).toBe(32);
    const opened = await client.decrypt({ CiphertextBlob: dataKey.CiphertextBlob, EncryptionContext: context });
    expect(Buffer.from(opened.Plaintext).equals(Buffer.from(dataKey.Plaintext))).toBe(true);
    await expect(client.decrypt({ CiphertextBlob: dataKey.CiphertextBlob, EncryptionContext: { ...context, connection_id: 'conn_b' } })).rejects.toMatchObject({ name: 'InvalidCiphertextException' });
    const wrapped = await client.encrypt({ KeyId: keyArn, Plaintext: new Uint8Array([1, 2, 3]), EncryptionContext: context });
    expect([...(await client.decrypt({ CiphertextBlob: wrapped.CiphertextBlob, EncryptionContext: context })).Plaintext]).toEqual([1, 2, 3]);
    await expect(client.generateDataKey({ KeyId: keyArn.replace(/key\/.*$/, 'key/00000000-0000-4000-8000-000000000000'), NumberOfBytes: 32 })).rejects.toMatchObject({ name: 'NotFoundException' });
    kms.destroy();
  });

  it('Secrets Manager: the signing seed is read and rotated; the cursor keys are the current version, then current and previous', async () => {
    const sm = admin('secretsmanager', 'secretsmanager', '1.1');
    const where = { region: REGION, awsEndpoints: { secretsManager: moto.url } };
    const signing = (await sm.call<{ ARN: string }>('CreateSecret', { Name: 'tessera-jwt-signing-seed', SecretString: 'first-seed-0123456789abcdefghijklmnop' })).ARN;
    const signingKeys = { kind: 'secrets-manager' as const, secretArn: signing };
    expect(await readCurrentSigningSeed({ signingKeys, ...where })).toBe('first-seed-0123456789abcdefghijklmnop');
    await writeCurrentSigningSeed({ signingKeys, ...where }, 'second-seed-0123456789abcdefghijklmnop');
    expect(await readCurrentSigningSeed({ signingKeys, ...where })).toBe('second-seed-0123456789abcdefghijklmnop');
    const previous = await sm.call<{ SecretString: string }>('GetSecretValue', { SecretId: signing, VersionStage: 'AWSPREVIOUS' });
    expect(previous.SecretString).toBe('first-seed-0123456789abcdefghijklmnop');

    const cursor = (await sm.call<{ ARN: string }>('CreateSecret', { Name: 'tessera-cursor-key', SecretString: 'first-cursor-secret-0123456789abcdef' })).ARN;
    const cursorKeys = { kind: 'secrets-manager' as const, secretArn: cursor };
    expect(await loadCursorKeys({ cursorKeys, ...where })).toEqual([deriveCursorKey('first-cursor-secret-0123456789abcdef')]);
    await sm.call('PutSecretValue', { SecretId: cursor, SecretString: 'second-cursor-secret-0123456789abcdef', ClientRequestToken: '11111111-2222-4333-8444-555555555555' });
    expect(await loadCursorKeys({ cursorKeys, ...where })).toEqual([deriveCursorKey('second-cursor-secret-0123456789abcdef'), deriveCursorKey('first-cursor-secret-0123456789abcdef')]);

    const gone = { kind: 'secrets-manager' as const, secretArn: signing.replace(/secret:.*$/, 'secret:tessera-deleted-AbCdEf') };
    await expect(readCurrentSigningSeed({ signingKeys: gone, ...where })).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    sm.destroy();
  });

  it('SQS: the run queue sends the message with its delay; a queue that is gone is QueueDoesNotExist', async () => {
    const sqs = admin('sqs', 'AmazonSQS', '1.0');
    const { QueueUrl } = await sqs.call<{ QueueUrl: string }>('CreateQueue', { QueueName: 'tessera-runs' });
    const step = { type: 'run_step' as const, tenant_id: 'ten_a', workspace_id: 'ws_a', connection_id: 'conn_a', run_id: 'run_a', step: 3 };
    await createSqsRunQueue({ queueUrl: QueueUrl, region: REGION, endpoint: moto.url }).send(step);
    const received = await sqs.call<{ Messages?: { Body: string }[] }>('ReceiveMessage', { QueueUrl, MaxNumberOfMessages: 10 });
    expect(received.Messages?.map((m) => JSON.parse(m.Body) as unknown)).toEqual([step]);

    await createSqsRunQueue({ queueUrl: QueueUrl, region: REGION, endpoint: moto.url }).send({ ...step, step: 4 }, { delaySeconds: 61.2 });
    // Delayed: not receivable yet.
    expect((await sqs.call<{ Messages?: unknown[] }>('ReceiveMessage', { QueueUrl, MaxNumberOfMessages: 10 })).Messages ?? []).toEqual([]);

    const goneUrl = QueueUrl.replace(/tessera-runs$/, 'tessera-gone');
    await expect(createSqsRunQueue({ queueUrl: goneUrl, region: REGION, endpoint: moto.url }).send(step)).rejects.toMatchObject({ name: 'QueueDoesNotExist' });
    sqs.destroy();
  });

  it('SES: the sender sends from a verified identity; an unverified sender is MessageRejected', async () => {
    // The identity, as an operator verifies it (SES v2 CreateEmailIdentity, REST-JSON).
    const ses = createAwsRequester('ses', { region: REGION, endpoint: moto.url });
    const url = new URL(moto.url);
    const port = Number(url.port);
    const created = await ses.send(
      { method: 'POST', protocol: url.protocol, hostname: url.hostname, port, path: '/v2/email/identities', headers: { host: hostHeader(url.hostname, port), 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ EmailIdentity: 'tessera-moto.example' })) },
      () => undefined,
      { service: 'SESv2', operation: 'CreateEmailIdentity' },
    );
    expect(created.status, created.body.toString()).toBe(200);
    ses.destroy();

    const message = passwordResetEmail({ to: 'ada@acme.example', resetLink: 'https://id.acme.example/reset-password?token=tsr_reset_abc', expiresInMinutes: 30 });
    const client = createSesv2Client({ region: REGION, endpoint: moto.url });
    await expect(createSesEmailSender({ from: 'Tessera <no-reply@tessera-moto.example>', client }).send(message)).resolves.toBeUndefined();
    await expect(createSesEmailSender({ from: 'no-reply@unverified.example', client }).send(message)).rejects.toMatchObject({ name: 'MessageRejected' });
  });
});
