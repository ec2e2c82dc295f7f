/**
 * The service in its aws stage, end to end over HTTP: the local host runs the real handlers with
 * `TESSERA_STAGE=aws` on DynamoDB Local, and every AWS call goes through the client the
 * functions ship (shared/aws/) to a local server speaking that service's protocol (test/support/aws-wire):
 * the issuer's signing seed from Secrets Manager, TOTP secrets and connection configurations
 * sealed by KMS, the reset email through SES, run steps onto SQS, and the operator's key
 * rotation (the CLI in a child process) through PutSecretValue. Then what a client sees when
 * one of those services refuses: a server fault is a 500 problem+json that names nothing of it
 * and writes nothing; a refused email still answers the same 202.
 */
import { execFile } from 'node:child_process';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { decodeProtectedHeader } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { deriveSigningKey } from '../../shared/crypto/signing-keys';
import { totpCode } from '../../shared/crypto/totp';
import { metricNames } from '../../shared/observability';
import { createS3AuditAnchor } from '../../shared/audit/s3-audit-anchor';
import { keys } from '../../shared/store/keys';
import type { ConnectionRecord } from '../../shared/store/records';
import { startAwsWire, pointSdkClientsAt, type AwsWire } from '../support/aws-wire/aws-stage';
import { ALLOW_ALL } from '../support/aws-wire/iam-policy';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login, PASSWORD, totpSecrets, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { REPOSITORY } from '../support/npm-start';
import { startTestHost, type TestHost } from '../support/test-host';

let wire: AwsWire;
let host: TestHost;
let http: HttpClient;
let tenant: TestTenant;
let accessToken: string;
const clock = new MovableClock();

const oktaConnection = (name: string) => ({
  integration_id: 'int_okta_discovery',
  name,
  scope: { group_filter: 'eng-' },
  schedule: { type: 'daily', hour: 2, minute: 30 },
  configuration: { org_url: 'https://acme.okta.com', api_token: '00TesseraWireApiToken_0123456789abcdef' },
});

beforeAll(async () => {
  wire = await startAwsWire();
  pointSdkClientsAt(wire);
  host = await startTestHost({ clock, deploymentRunQueue: true, env: { ...wire.config, TESSERA_PASSWORD_RESET_RESPONSE_FLOOR_MS: '0' } });
  http = api(host.url);
  tenant = await createTestTenant(host.deps);
  accessToken = (await login(http, clock, tenant.admin.email)).accessToken;
});

afterAll(async () => {
  await host?.close();
  await wire?.close();
  vi.unstubAllEnvs();
});

afterEach(() => {
  vi.restoreAllMocks();
  for (const server of [wire.kms, wire.secretsManager, wire.ses, wire.sqs]) server.policy = ALLOW_ALL;
});

describe('the aws stage over HTTP', () => {
  it('signs in with the seed from Secrets Manager and seals the TOTP secret with KMS under the user\'s context', async () => {
    expect(host.config.stage).toBe('aws');
    expect(wire.secretsManager.calls).toContainEqual({ operation: 'GetSecretValue', secretId: wire.signingSecretArn, versionStage: 'AWSCURRENT' });
    const sealing = wire.kms.calls.filter((call) => call.encryptionContext?.purpose === 'totp');
    expect(sealing.map((call) => call.operation)).toEqual(['GenerateDataKey', 'Decrypt']);
    expect(sealing[0]!.encryptionContext).toEqual({ tenant_id: tenant.tenantId, user_id: tenant.admin.id, purpose: 'totp' });
    const me = await http.request('GET', '/v1/me', { token: accessToken });
    expect(me.status).toBe(200);
    expect((me.body as { email: string }).email).toBe(tenant.admin.email);
  });

  it('creates a connection whose configuration KMS sealed for that connection, and queues its run on SQS', async () => {
    wire.kms.calls.length = 0;
    const created = await http.request('POST', '/v1/connections', { token: accessToken, body: oktaConnection('Okta via KMS') });
    expect(created.status, created.text).toBe(201);
    const connectionId = (created.body as { connection_id: string }).connection_id;
    expect(created.text).not.toContain('00TesseraWireApiToken');
    expect(wire.kms.calls).toEqual([
      { operation: 'GenerateDataKey', keyId: wire.kms.keyArn, encryptionContext: { tenant_id: tenant.tenantId, workspace_id: tenant.workspaceId, connection_id: connectionId } },
    ]);
    const stored = await host.deps.table.get<ConnectionRecord>(keys.connection(tenant.tenantId, tenant.workspaceId, connectionId));
    expect(JSON.stringify(stored)).not.toContain('00TesseraWireApiToken');

    const before = wire.sqs.messages(wire.runQueueUrl).length;
    const run = await http.request('POST', `/v1/connections/${connectionId}/runs`, { token: accessToken });
    expect(run.status, run.text).toBe(202);
    const runId = (run.body as { run_id: string }).run_id;
    expect(wire.sqs.messages(wire.runQueueUrl).slice(before)).toEqual([
      { body: JSON.stringify({ type: 'run_step', tenant_id: tenant.tenantId, workspace_id: tenant.workspaceId, connection_id: connectionId, run_id: runId, step: 0 }), delaySeconds: 0 },
    ]);
  });

  it('anchors each audit chain\'s head in the S3 bucket, put only if absent, and verify-audit\'s reader lists them back', async () => {
    const created = await http.request('POST', '/v1/connections', { token: accessToken, body: oktaConnection('Okta, anchored') });
    expect(created.status, created.text).toBe(201);
    // The anchor is written after the commit: wait for the workspace chain's newest head.
    const prefix = `${tenant.tenantId}/workspaces/${tenant.workspaceId}/`;
    const workspaceHeads = () => [...wire.s3.objects(wire.auditAnchorBucket).keys()].filter((k) => k.startsWith(prefix));
    await expect.poll(() => workspaceHeads().length).toBeGreaterThan(0);
    for (const key of workspaceHeads()) expect(key).toMatch(/\/\d{12}-[0-9a-f]{64}$/);
    const heads = await createS3AuditAnchor({ bucket: wire.auditAnchorBucket, region: wire.config.AWS_REGION!, endpoint: wire.s3.endpoint }).heads({ tenantId: tenant.tenantId, workspaceId: tenant.workspaceId });
    expect(heads.map((h) => `${prefix}${String(h.seq).padStart(12, '0')}-${h.digest}`)).toEqual(workspaceHeads().sort());
  });

  it('a run whose step SQS refuses is still accepted: the step is logged as lost and the stalled-run recovery sends it again', async () => {
    const created = await http.request('POST', '/v1/connections', { token: accessToken, body: oktaConnection('Okta, queue gone') });
    const connectionId = (created.body as { connection_id: string }).connection_id;
    const logged = vi.spyOn(host.deps.observability.logger, 'error');
    wire.sqs.deleteQueue(wire.runQueueUrl);
    try {
      const run = await http.request('POST', `/v1/connections/${connectionId}/runs`, { token: accessToken });
      expect(run.status, run.text).toBe(202);
      expect((run.body as { status: string }).status).toBe('queued');
    } finally {
      wire.sqs.createQueue('tessera-runs');
    }
    expect(logged).toHaveBeenCalledWith('run step could not be queued; the stalled-run recovery will resume it', expect.objectContaining({ error_name: 'QueueDoesNotExist' }));
  });

  it('a role that may not use the KMS key: POST /v1/connections is a 500 problem+json naming nothing of it, and nothing is written', async () => {
    wire.kms.policy = [{ Effect: 'Allow', Action: 'kms:Decrypt', Resource: wire.kms.keyArn }];
    const names = async () => ((await http.request('GET', '/v1/connections', { token: accessToken })).body as { connections: { name: string }[] }).connections.map((c) => c.name);
    const createdEvents = async () => ((await http.request('GET', '/v1/audit-events?action=connection_created', { token: accessToken })).body as { audit_events: unknown[] }).audit_events.length;
    const [namesBefore, eventsBefore] = [await names(), await createdEvents()];
    const refused = await http.request('POST', '/v1/connections', { token: accessToken, body: oktaConnection('Okta, no grant') });
    expect(refused.status).toBe(500);
    expect(refused.headers['content-type']).toBe('application/problem+json');
    expect(refused.body).toMatchObject({ code: 'internal_error', detail: 'Internal error' });
    expect(refused.text).not.toMatch(/kms|arn:aws|AccessDenied|00TesseraWireApiToken/i);
    wire.kms.policy = ALLOW_ALL;
    expect(await names()).toEqual(namesBefore);
    expect(await createdEvents()).toBe(eventsBefore);
  });

  it('a configuration moved to another connection does not open there: its test fails with the re-enter remediation, never a 500', async () => {
    const ids: string[] = [];
    for (const name of ['Okta A', 'Okta B']) {
      const created = await http.request('POST', '/v1/connections', { token: accessToken, body: oktaConnection(name) });
      ids.push((created.body as { connection_id: string }).connection_id);
    }
    const [from, to] = ids as [string, string];
    const source = await host.deps.table.get<ConnectionRecord>(keys.connection(tenant.tenantId, tenant.workspaceId, from));
    await host.documents.send(new UpdateCommand({
      TableName: host.config.tableName,
      Key: keys.connection(tenant.tenantId, tenant.workspaceId, to),
      UpdateExpression: 'SET configuration_encrypted = :moved',
      ExpressionAttributeValues: { ':moved': source!.configuration_encrypted },
    }));

    const tested = await http.request('POST', `/v1/connections/${to}/test`, { token: accessToken });
    expect(tested.status, tested.text).toBe(200);
    expect(tested.body).toMatchObject({ status: 'failure', remediation: [{ category: 'configuration', message: 'The stored configuration of this connection cannot be decrypted' }] });
  });

  it('mails the reset link through SES; an unknown account sends nothing, with the same 202', async () => {
    wire.ses.sent.length = 0;
    const known = await http.request('POST', '/v1/auth/password/forgot', { body: { email: tenant.admin.email } });
    const unknown = await http.request('POST', '/v1/auth/password/forgot', { body: { email: `nobody@${tenant.domain}` } });
    expect([known.status, unknown.status]).toEqual([202, 202]);
    expect(known.text).toBe(unknown.text);
    expect(wire.ses.sent).toHaveLength(1);
    expect(wire.ses.sent[0]).toMatchObject({ from: wire.config.TESSERA_EMAIL_FROM, to: [tenant.admin.email] });
    expect(wire.ses.sent[0]!.text).toMatch(new RegExp(`${host.url}/reset-password\\?token=tsr_reset_`));
  });

  it('an email SES rejects (unverified sender) or may not send is logged by name and counted for its alarm, and the client gets the same 202', async () => {
    const logged = vi.spyOn(host.deps.observability.logger, 'error');
    const counted = vi.spyOn(host.deps.observability, 'count');
    wire.ses.sent.length = 0;
    wire.ses.verifiedIdentities.delete('tessera-wire.example');
    try {
      const rejected = await http.request('POST', '/v1/auth/password/forgot', { body: { email: tenant.admin.email } });
      expect(rejected.status).toBe(202);
    } finally {
      wire.ses.verifiedIdentities.add('tessera-wire.example');
    }
    wire.ses.policy = [];
    const denied = await http.request('POST', '/v1/auth/password/forgot', { body: { email: tenant.admin.email } });
    expect(denied.status).toBe(202);
    expect(wire.ses.sent).toEqual([]);
    expect(logged.mock.calls.filter(([message]) => message === 'password reset email not sent').map(([, fields]) => (fields as { error: string }).error)).toEqual(['MessageRejected', 'AccessDeniedException']);
    expect(counted.mock.calls.filter(([metric]) => metric === metricNames.emailSendFailure)).toHaveLength(2);
  });

  it('an issuer whose signing secret is unreadable answers the MFA challenge with a 500 problem+json, and signs again once it can read it', async () => {
    clock.advance(host.config.keyCacheSeconds + 1);
    wire.secretsManager.policy = [{ Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: wire.cursorSecretArn }];
    const started = await http.request('POST', '/v1/auth/login', { body: { email: tenant.admin.email, password: PASSWORD } });
    expect(started.status, started.text).toBe(200);
    const code = await totpCode(totpSecrets.get(tenant.admin.email)!, clock.epochSeconds());
    clock.advance(30);
    const failed = await http.request('POST', '/v1/mfa/challenge', { body: { mfa_token: (started.body as { mfa_token: string }).mfa_token, code } });
    expect(failed.status).toBe(500);
    expect(failed.body).toMatchObject({ code: 'internal_error', detail: 'Internal error' });
    expect(failed.text).not.toMatch(/secretsmanager|arn:aws|AccessDenied/i);
    wire.secretsManager.policy = ALLOW_ALL;
    const session = await login(http, clock, tenant.admin.email);
    expect((await http.request('GET', '/v1/me', { token: session.accessToken })).status).toBe(200);
  });

  it('the operator\'s rotate-signing-key puts the new seed with PutSecretValue; issuers then sign with it and the JWKS lists both keys', async () => {
    const before = wire.secretsManager.valueAt(wire.signingSecretArn, 'AWSCURRENT') as string;
    const rotated = await runCli(['rotate-signing-key'], {
      ...wire.config,
      DYNAMODB_ENDPOINT: host.config.dynamodbEndpoint!,
      TESSERA_TABLE: host.config.tableName,
      TESSERA_PUBLIC_URL: host.url,
    });
    expect(rotated.code, rotated.stderr).toBe(0);
    const after = wire.secretsManager.valueAt(wire.signingSecretArn, 'AWSCURRENT') as string;
    expect(after).not.toBe(before);
    expect(wire.secretsManager.valueAt(wire.signingSecretArn, 'AWSPREVIOUS')).toBe(before);
    expect(rotated.stdout + rotated.stderr).not.toContain(after);
    const [oldKid, newKid] = [deriveSigningKey(before).kid, deriveSigningKey(after).kid];
    expect(rotated.stdout).toContain(`Published and promoted signing key ${newKid}`);

    clock.advance(host.config.keyCacheSeconds + 1);
    const session = await login(http, clock, tenant.admin.email);
    expect(decodeProtectedHeader(session.accessToken).kid).toBe(newKid);
    const jwks = await http.request('GET', '/v1/.well-known/jwks.json');
    expect((jwks.body as { keys: { kid: string }[] }).keys.map((k) => k.kid)).toEqual(expect.arrayContaining([oldKid, newKid]));
  });
});

/** `npm run tessera -- <args>` as the operator runs it, in this process's environment (the SDK variables included) plus `env`. */
function runCli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('npm', ['run', 'tessera', '--', ...args], { cwd: REPOSITORY, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}
