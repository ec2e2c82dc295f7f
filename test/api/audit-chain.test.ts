/**
 * Tamper-evident audit logs: a tenant's identity log and a workspace's log are hash chains.
 * Parallel audited requests still make one unbroken chain, and `verify-audit` (the operator
 * CLI) names the first broken link when an event is edited, deleted or moved in the table.
 */
import { spawn } from 'node:child_process';
import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { checkAuditChain } from '../../shared/audit/audit-chain-check';
import { keys } from '../../shared/store/keys';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

interface Event { event_id: string; action: string; seq: number; prev_digest: string | null; digest: string }
type Integration = { integration_id: string; configuration_schema: { examples: Record<string, unknown>[] }; scope_schema: { examples: Record<string, unknown>[] } };

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
let adminToken: string;
const PARALLEL = 20;

/** The stored items of a log, oldest link first. */
async function storedEvents(pk: string): Promise<Record<string, unknown>[]> {
  const out = await host.documents.send(new QueryCommand({ TableName: host.config.tableName, KeyConditionExpression: 'PK = :pk AND begins_with(SK, :evt)', ExpressionAttributeValues: { ':pk': pk, ':evt': 'EVT#' }, ConsistentRead: true }));
  return (out.Items ?? []).sort((a, b) => (a.seq as number) - (b.seq as number));
}
const putBack = (item: Record<string, unknown>) => host.documents.send(new PutCommand({ TableName: host.config.tableName, Item: item }));

/** `npm run tessera -- verify-audit …` against this file's table. */
function verifyAudit(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/cli.ts', 'verify-audit', ...args], {
      env: { ...process.env, TESSERA_STAGE: 'local', AWS_REGION: 'us-east-1', DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'), TESSERA_TABLE: host.config.tableName, TESSERA_DATA_DIR: host.config.dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

beforeAll(async () => {
  host = await startTestHost({ clock });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
});
afterAll(() => host?.close());

describe('audit hash chains', () => {
  it('parallel audited requests make one unbroken identity chain, readable through the API', async () => {
    const created = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => http.request('POST', '/v1/users', { token: adminToken, body: { email: `p${i}@${tenant.domain}`, role: 'viewer', password: 'correct horse battery staple' } })),
    );
    expect(created.map((r) => r.status)).toEqual(created.map(() => 201));
    const res = await http.request('GET', `/v1/tenants/${tenant.tenantId}/audit-events?limit=100`, { token: adminToken });
    expect(res.status).toBe(200);
    const events = (res.body as { audit_events: Event[] }).audit_events;
    // tenant_created, login_succeeded and the twenty user_created, each with its own number.
    expect(events.filter((e) => e.action === 'user_created')).toHaveLength(PARALLEL);
    expect(events.map((e) => e.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: PARALLEL + 2 }, (_, i) => i + 1));
    const bySeq = [...events].sort((a, b) => a.seq - b.seq);
    expect(bySeq[0]!.prev_digest).toBeNull();
    for (let i = 1; i < bySeq.length; i++) expect(bySeq[i]!.prev_digest).toBe(bySeq[i - 1]!.digest);
    expect(await checkAuditChain(host.deps, { tenantId: tenant.tenantId })).toEqual({ ok: true, count: PARALLEL + 2 });
  });

  it('parallel connection changes make one unbroken workspace chain', async () => {
    const catalog = ((await http.request('GET', '/v1/integrations', { token: adminToken })).body as { integrations: Integration[] }).integrations;
    const integration = catalog[0]!;
    const created = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        http.request('POST', '/v1/connections', {
          token: adminToken,
          body: { integration_id: integration.integration_id, name: `chain ${i}`, scope: integration.scope_schema.examples[0], schedule: { type: 'daily', hour: 3, minute: 15 }, configuration: integration.configuration_schema.examples[0] },
        }),
      ),
    );
    expect(created.map((r) => r.status)).toEqual(created.map(() => 201));
    const workspace = { tenantId: tenant.tenantId, workspaceId: tenant.workspaceId };
    expect(await checkAuditChain(host.deps, workspace)).toEqual({ ok: true, count: PARALLEL });
    const cli = await verifyAudit(['--tenant', tenant.tenantId, '--workspace', tenant.workspaceId]);
    expect(cli.code, cli.out).toBe(0);
    expect(cli.out).toContain(`OK: ${PARALLEL} events`);
  });

  it('verify-audit names the first broken link of an edited, deleted or reordered chain', async () => {
    for (let i = 0; i < 6; i++) {
      const res = await http.request('POST', '/v1/users', { token: adminToken, body: { email: `t${i}@${tenant.domain}`, role: 'viewer', password: 'correct horse battery staple' } });
      expect(res.status).toBe(201);
    }
    const pk = keys.identityAuditEvents(tenant.tenantId).PK;
    const original = await storedEvents(pk);
    const count = original.length;
    expect(count).toBeGreaterThanOrEqual(8);
    expect(original.map((e) => e.seq)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    const usage = await verifyAudit([]);
    expect(usage.code, usage.out).toBe(1);
    expect(usage.out).toContain('--tenant is required');
    const ok = await verifyAudit(['--tenant', tenant.tenantId]);
    expect(ok.code, ok.out).toBe(0);
    expect(ok.out).toContain(`OK: ${count} events`);
    const [e5, e6, e7] = [original[4]!, original[5]!, original[6]!];

    // An edited field: the event's digest no longer matches it.
    await putBack({ ...e6, action: 'login_succeeded' });
    const edited = await verifyAudit(['--tenant', tenant.tenantId]);
    expect(edited.code).not.toBe(0);
    expect(edited.out).toContain(`BROKEN at seq 6 (event ${e6.event_id as string})`);
    await putBack(e6);

    // A deleted event: the one after it is the first broken link.
    await host.documents.send(new DeleteCommand({ TableName: host.config.tableName, Key: { PK: e6.PK, SK: e6.SK } }));
    const deleted = await verifyAudit(['--tenant', tenant.tenantId]);
    expect(deleted.code).not.toBe(0);
    expect(deleted.out).toContain(`BROKEN at seq 6 (event ${e7.event_id as string})`);
    expect(await checkAuditChain(host.deps, { tenantId: tenant.tenantId })).toMatchObject({ ok: false, brokenAt: { seq: 6, eventId: e7.event_id } });
    await putBack(e6);

    // Two events swapped (their numbers exchanged): the chain no longer links at the first of them.
    await putBack({ ...e5, seq: 6 });
    await putBack({ ...e6, seq: 5 });
    expect(await checkAuditChain(host.deps, { tenantId: tenant.tenantId })).toMatchObject({ ok: false, brokenAt: { seq: 5, eventId: e6.event_id } });
    await putBack(e5);
    await putBack(e6);

    // The newest event gone: the chain's head still names it.
    const last = original.at(-1)!;
    await host.documents.send(new DeleteCommand({ TableName: host.config.tableName, Key: { PK: last.PK, SK: last.SK } }));
    expect(await checkAuditChain(host.deps, { tenantId: tenant.tenantId })).toMatchObject({ ok: false, brokenAt: { seq: count } });
    await putBack(last);

    expect(await checkAuditChain(host.deps, { tenantId: tenant.tenantId })).toEqual({ ok: true, count });
  });
});
