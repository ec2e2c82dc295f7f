/**
 * The aws stage's AWS calls, each made by the client the functions ship (Tessera's own,
 * shared/aws/), unchanged, against a local server that speaks that service's wire protocol and
 * checks its signatures (test/support/aws-wire): the KMS keyring of the envelope crypto, the key
 * material from Secrets Manager, the SES sender and the SQS run queue. The clients find the
 * servers through the configuration's `AWS_ENDPOINT_URL_<SERVICE>` and sign with the keys of
 * `AWS_ACCESS_KEY_ID`, as in Lambda; refusals (encryption context, permission, missing
 * resources) come back as the service sends them, named as the SDK named them.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../shared/config';
import { loadCursorKeys, deriveCursorKey } from '../../shared/crypto/cursor-keys';
import { EncryptionContextMismatchError, envelopeOf } from '../../shared/crypto/envelope';
import { createAwsJsonClient } from '../../shared/aws/aws-json-client';
import { createKmsClient } from '../../shared/aws/kms-client';
import { createSesv2Client } from '../../shared/aws/sesv2-client';
import { putSecret } from '../../shared/crypto/secret-versions';
import { readCurrentSigningSeed, writeCurrentSigningSeed } from '../../shared/crypto/signing-seeds';
import type { Deps } from '../../shared/deps';
import { createDeps } from '../../functions/start/deps-assembly';
import { createSesEmailSender } from '../../shared/email/ses-email-sender';
import { passwordResetEmail } from '../../shared/email/templates';
import { runQueueOf } from '../../shared/runs/run-queue';
import { startAwsWire, pointSdkClientsAt, SENDER, type AwsWire } from '../support/aws-wire/aws-stage';
import { TEST_CREDENTIALS, TEST_REGION } from '../support/aws-wire/caller';
import { ALLOW_ALL, type IamStatement } from '../support/aws-wire/iam-policy';

let wire: AwsWire;
let deps: Deps;

beforeAll(async () => {
  wire = await startAwsWire();
  pointSdkClientsAt(wire);
  // Nothing here reaches the table: the address only has to be valid.
  deps = await createDeps(loadConfig({ ...wire.config, TESSERA_TABLE: 'unused', DYNAMODB_ENDPOINT: 'http://127.0.0.1:1' }));
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await wire?.close();
});

afterEach(() => {
  for (const server of [wire.kms, wire.secretsManager, wire.ses, wire.sqs]) server.policy = ALLOW_ALL;
});

const connectionContext = { tenant_id: 'ten_a', workspace_id: 'ws_a', connection_id: 'conn_a' };
const totpContext = { tenant_id: 'ten_a', user_id: 'usr_a', purpose: 'totp' };

/** The envelope key's statements as the stack writes them: encrypt, and decrypt only of contexts with exactly these keys. */
function envelopeKeyPolicy(decryptContextKeys: string[]): IamStatement[] {
  return [
    { Effect: 'Allow', Action: ['kms:GenerateDataKey', 'kms:Encrypt'], Resource: wire.kms.keyArn },
    {
      Effect: 'Allow',
      Action: 'kms:Decrypt',
      Resource: wire.kms.keyArn,
      Condition: {
        'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': decryptContextKeys },
        Null: Object.fromEntries(decryptContextKeys.map((key) => [`kms:EncryptionContext:${key}`, 'false'])),
      },
    },
  ];
}

describe('envelope crypto of the aws stage: the KMS keyring', () => {
  it('seals with one GenerateDataKey and opens with one Decrypt, both carrying the object\'s context', async () => {
    const envelope = await envelopeOf(deps);
    expect(envelope.keyId).toBe(wire.kms.keyArn);
    wire.kms.calls.length = 0;
    const ciphertext = await envelope.encrypt('{"api_token":"s3cret"}', connectionContext);
    expect(Buffer.from(ciphertext, 'base64').toString('latin1')).not.toContain('s3cret');
    expect(await envelope.decrypt(ciphertext, connectionContext)).toBe('{"api_token":"s3cret"}');
    expect(wire.kms.calls).toEqual([
      { operation: 'GenerateDataKey', keyId: wire.kms.keyArn, encryptionContext: connectionContext },
      { operation: 'Decrypt', keyId: wire.kms.keyArn, encryptionContext: connectionContext },
    ]);
  });

  it('refuses a ciphertext moved to another object', async () => {
    const envelope = await envelopeOf(deps);
    const ciphertext = await envelope.encrypt('{"api_token":"s3cret"}', connectionContext);
    await expect(envelope.decrypt(ciphertext, { ...connectionContext, connection_id: 'conn_b' })).rejects.toBeInstanceOf(EncryptionContextMismatchError);
  });

  it('KMS itself binds a data key to its context: another context is InvalidCiphertextException', async () => {
    const kms = createKmsClient({ region: TEST_REGION, endpoint: wire.kms.endpoint });
    const { CiphertextBlob } = await kms.generateDataKey({ KeyId: wire.kms.keyArn, NumberOfBytes: 32, EncryptionContext: connectionContext });
    await expect(kms.decrypt({ CiphertextBlob, EncryptionContext: connectionContext })).resolves.toMatchObject({ KeyId: wire.kms.keyArn });
    await expect(kms.decrypt({ CiphertextBlob, EncryptionContext: { ...connectionContext, connection_id: 'conn_b' } })).rejects.toMatchObject({ name: 'InvalidCiphertextException' });
    await expect(kms.decrypt({ CiphertextBlob, KeyId: wire.kms.createKey() })).rejects.toMatchObject({ name: 'IncorrectKeyException' });
  });

  it('a role whose decrypt grant is conditioned on exactly the connection context keys opens configurations, nothing with other, more or fewer keys', async () => {
    const envelope = await envelopeOf(deps);
    const configuration = await envelope.encrypt('{"api_token":"s3cret"}', connectionContext);
    const totpSecret = await envelope.encrypt('JBSWY3DPEHPK3PXP', totpContext);
    // Every key of the grant present, and one more: not "exactly these keys".
    const widerContext = { ...connectionContext, purpose: 'sso_pkce' };
    const wider = await envelope.encrypt('verifier', widerContext);
    // Only some of the grant's keys: not "all present".
    const narrowerContext = { tenant_id: 'ten_a', workspace_id: 'ws_a' };
    const narrower = await envelope.encrypt('workspace secret', narrowerContext);
    wire.kms.policy = envelopeKeyPolicy(['tenant_id', 'workspace_id', 'connection_id']);
    expect(await envelope.decrypt(configuration, connectionContext)).toBe('{"api_token":"s3cret"}');
    await expect(envelope.decrypt(totpSecret, totpContext)).rejects.toThrow(/AccessDeniedException: User: .* is not authorized to perform: kms:Decrypt on resource: arn:aws:kms:/);
    await expect(envelope.decrypt(wider, widerContext)).rejects.toThrow(/AccessDeniedException/);
    await expect(envelope.decrypt(narrower, narrowerContext)).rejects.toThrow(/AccessDeniedException/);
  });

  it('a role without kms:GenerateDataKey cannot seal: the error names the denial', async () => {
    wire.kms.policy = [{ Effect: 'Allow', Action: 'kms:Decrypt', Resource: wire.kms.keyArn }];
    await expect((await envelopeOf(deps)).encrypt('x', connectionContext)).rejects.toMatchObject({ name: 'AccessDeniedException' });
  });

  it('refuses a key it does not have, and requests signed for another region or with another secret', async () => {
    const missing = wire.kms.keyArn.replace(/key\/.*$/, 'key/00000000-0000-4000-8000-000000000000');
    const endpoint = wire.kms.endpoint;
    await expect(createKmsClient({ region: TEST_REGION, endpoint }).generateDataKey({ KeyId: missing, NumberOfBytes: 32 })).rejects.toMatchObject({ name: 'NotFoundException' });
    await expect(createKmsClient({ region: 'us-east-1', endpoint }).generateDataKey({ KeyId: wire.kms.keyArn, NumberOfBytes: 32 })).rejects.toMatchObject({ name: 'InvalidSignatureException' });
    const wrongSecret = createKmsClient({ region: TEST_REGION, endpoint, credentials: () => Promise.resolve({ accessKeyId: TEST_CREDENTIALS.accessKeyId, secretAccessKey: 'not-the-secret' }) });
    await expect(wrongSecret.generateDataKey({ KeyId: wire.kms.keyArn, NumberOfBytes: 32 })).rejects.toMatchObject({ name: 'InvalidSignatureException' });
  });
});

describe('key material from Secrets Manager', () => {
  const where = () => ({ region: TEST_REGION, awsEndpoints: { secretsManager: wire.secretsManager.endpoint } });
  const signingConfig = () => ({ signingKeys: { kind: 'secrets-manager' as const, secretArn: wire.signingSecretArn }, ...where() });
  const cursorConfig = (secretArn: string) => ({ cursorKeys: { kind: 'secrets-manager' as const, secretArn }, ...where() });

  it('issuers read the signing seed\'s current version only; a rotation writes a new current one', async () => {
    const before = wire.secretsManager.valueAt(wire.signingSecretArn, 'AWSCURRENT');
    wire.secretsManager.calls.length = 0;
    expect(await readCurrentSigningSeed(signingConfig())).toBe(before);
    expect(wire.secretsManager.calls).toEqual([{ operation: 'GetSecretValue', secretId: wire.signingSecretArn, versionStage: 'AWSCURRENT' }]);

    await writeCurrentSigningSeed(signingConfig(), 'rotated-seed-0123456789abcdefghijklmnop');
    expect(await readCurrentSigningSeed(signingConfig())).toBe('rotated-seed-0123456789abcdefghijklmnop');
    expect(wire.secretsManager.valueAt(wire.signingSecretArn, 'AWSPREVIOUS')).toBe(before);
    // The idempotency token the SDK filled in, so a retried put cannot make a second version.
    const put = wire.secretsManager.calls.find((call) => call.operation === 'PutSecretValue');
    expect(put?.clientRequestToken).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    await writeCurrentSigningSeed(signingConfig(), 'another-seed-0123456789abcdefghijklmnop');
    const tokens = wire.secretsManager.calls.filter((call) => call.operation === 'PutSecretValue').map((call) => call.clientRequestToken);
    expect(tokens).toHaveLength(2);
    expect(tokens[1]).not.toBe(tokens[0]);
    expect(wire.secretsManager.valueAt(wire.signingSecretArn, 'AWSPREVIOUS')).toBe('rotated-seed-0123456789abcdefghijklmnop');
  });

  it('cursor keys: the current version alone before the first rotation, then current and previous', async () => {
    const arn = wire.secretsManager.createSecret('cursor-rotation', 'first-cursor-secret-0123456789abcdef');
    expect(await loadCursorKeys(cursorConfig(arn))).toEqual([deriveCursorKey('first-cursor-secret-0123456789abcdef')]);
    await putSecret(arn, where(), 'second-cursor-secret-0123456789abcdef');
    expect(await loadCursorKeys(cursorConfig(arn))).toEqual([deriveCursorKey('second-cursor-secret-0123456789abcdef'), deriveCursorKey('first-cursor-secret-0123456789abcdef')]);
  });

  it('a put repeated with its idempotency token makes no second version (a retry), and the token with another value is refused', async () => {
    const arn = wire.secretsManager.createSecret('retried-put', 'first-0123456789abcdef');
    const sm = createAwsJsonClient({ service: 'secretsmanager', targetPrefix: 'secretsmanager', jsonVersion: '1.1', tracedName: 'Secrets Manager' }, { region: TEST_REGION, endpoint: wire.secretsManager.endpoint });
    const put = { SecretId: arn, SecretString: 'second-0123456789abcdef', ClientRequestToken: '0f8fad5b-d9cb-469f-a165-70867728950e' };
    await sm.call('PutSecretValue', put);
    await sm.call('PutSecretValue', put);
    expect(wire.secretsManager.valueAt(arn, 'AWSPREVIOUS')).toBe('first-0123456789abcdef');
    await expect(sm.call('PutSecretValue', { ...put, SecretString: 'third-0123456789abcdef' })).rejects.toMatchObject({ name: 'ResourceExistsException' });
    expect(wire.secretsManager.valueAt(arn, 'AWSCURRENT')).toBe('second-0123456789abcdef');
    sm.destroy();
  });

  it('a previous version without a string (binary) is left out of the cursor keys', async () => {
    const arn = wire.secretsManager.createSecret('cursor-binary-previous', Buffer.from('binary before'));
    await putSecret(arn, where(), 'string-cursor-secret-0123456789abcdef');
    expect(await loadCursorKeys(cursorConfig(arn))).toEqual([deriveCursorKey('string-cursor-secret-0123456789abcdef')]);
  });

  it('a missing secret fails with ResourceNotFoundException; a binary one is refused as empty', async () => {
    const missing = wire.signingSecretArn.replace(/secret:.*$/, 'secret:tessera-deleted-AbCdEf');
    await expect(readCurrentSigningSeed({ signingKeys: { kind: 'secrets-manager', secretArn: missing }, ...where() })).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    const binary = wire.secretsManager.createSecret('binary-seed', Buffer.from('not a string'));
    await expect(readCurrentSigningSeed({ signingKeys: { kind: 'secrets-manager', secretArn: binary }, ...where() })).rejects.toThrow('The signing key secret is empty');
  });

  it('a role that may not read the previous cursor version fails the load (no silent loss of cursors); the signing secret stays unreadable to it', async () => {
    wire.secretsManager.policy = [{ Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: wire.cursorSecretArn, Condition: { StringEquals: { 'secretsmanager:VersionStage': 'AWSCURRENT' } } }];
    await expect(loadCursorKeys(cursorConfig(wire.cursorSecretArn))).rejects.toMatchObject({ name: 'AccessDeniedException' });
    wire.secretsManager.policy = [{ Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: wire.cursorSecretArn }];
    await expect(loadCursorKeys(cursorConfig(wire.cursorSecretArn))).resolves.toEqual([deriveCursorKey(wire.secretsManager.valueAt(wire.cursorSecretArn, 'AWSCURRENT') as string)]);
    await expect(readCurrentSigningSeed(signingConfig())).rejects.toThrow(/is not authorized to perform: secretsmanager:GetSecretValue on resource: arn:aws:secretsmanager:.*tessera-jwt-signing-seed/);
  });
});

describe('SES sender', () => {
  const message = passwordResetEmail({ to: 'ada@acme.example', resetLink: 'https://id.acme.example/reset-password?token=tsr_reset_abc', expiresInMinutes: 30 });
  const sender = (from = SENDER, configurationSet?: string) => createSesEmailSender({ from, configurationSet, client: createSesv2Client({ region: TEST_REGION, endpoint: wire.ses.endpoint }) });

  it('sends one SendEmail with the text part, sender, recipient and configuration set', async () => {
    wire.ses.sent.length = 0;
    await sender(SENDER, 'tessera-events').send(message);
    expect(wire.ses.sent).toEqual([{ from: SENDER, to: ['ada@acme.example'], subject: message.subject, text: message.text, configurationSet: 'tessera-events' }]);
  });

  it('an unverified sender identity is MessageRejected and nothing is sent; a role without ses:SendEmail is AccessDeniedException', async () => {
    wire.ses.sent.length = 0;
    await expect(sender('Tessera <no-reply@example.com>').send(message)).rejects.toMatchObject({ name: 'MessageRejected', message: expect.stringContaining('Email address is not verified') as unknown });
    wire.ses.policy = [{ Effect: 'Allow', Action: 'ses:SendEmail', Resource: 'arn:aws:ses:*:*:identity/other.example' }];
    await expect(sender().send(message)).rejects.toMatchObject({ name: 'AccessDeniedException' });
    expect(wire.ses.sent).toEqual([]);
  });
});

describe('SQS run queue', () => {
  const step = { type: 'run_step' as const, tenant_id: 'ten_a', workspace_id: 'ws_a', connection_id: 'conn_a', run_id: 'run_a', step: 3 };

  it('sends the message as JSON, with its delay, to the configured queue', async () => {
    const before = wire.sqs.messages(wire.runQueueUrl).length;
    await runQueueOf(deps).send(step, { delaySeconds: 61.2 });
    expect(wire.sqs.messages(wire.runQueueUrl).slice(before)).toEqual([{ body: JSON.stringify(step), delaySeconds: 62 }]);
  });

  it('a queue that is gone is QueueDoesNotExist; a role without sqs:SendMessage is AccessDenied', async () => {
    wire.sqs.policy = [{ Effect: 'Allow', Action: 'sqs:SendMessage', Resource: 'arn:aws:sqs:*:*:another-queue' }];
    await expect(runQueueOf(deps).send(step)).rejects.toMatchObject({ name: 'AccessDenied' });
    wire.sqs.policy = ALLOW_ALL;
    wire.sqs.deleteQueue(wire.runQueueUrl);
    try {
      await expect(runQueueOf(deps).send(step)).rejects.toMatchObject({ name: 'QueueDoesNotExist' });
    } finally {
      wire.sqs.createQueue('tessera-runs');
    }
  });
});
