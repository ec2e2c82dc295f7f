/**
 * Tamper-evident audit logs: a tenant's identity log and a workspace's log are hash chains,
 * whose heads every append also records in the audit anchor (here the local append-only file
 * under the host's data directory). Parallel audited requests still make one unbroken chain,
 * and `verify-audit` (the operator CLI) names the first broken link when an event is edited,
 * deleted or moved in the table — even by someone who recomputes the digests and the head.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { auditEventDigest } from '../../shared/audit/audit-chain';
import { checkAuditChain } from '../../shared/audit/audit-chain-check';
import { keys } from '../../shared/store/keys';
import { withoutKeys } from '../../shared/store/table-client';
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
const remove = (item: Record<string, unknown>) => host.documents.send(new DeleteCommand({ TableName: host.config.tableName, Key: { PK: item.PK, SK: item.SK } }));
/** A stored event with its digest recomputed, as a table writer can: `seq` and `prev_digest` as given. */
const redigested = (item: Record<string, unknown>) => ({ ...item, digest: auditEventDigest(withoutKeys(item)) });
/** Sets a chain's head item as a table writer would. */
const setHead = (tenantId: string, head: { seq: number; digest: string }) => putBack({ ...keys.identityAuditChainHead(tenantId), ...head });

/** `npm run tessera -- verify-audit …` against this file's table. */
function verifyAudit(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/cli.ts', 'verify-audit', ...args], {
      env: { ...process.env, TESSERA_STAGE: 'local', AWS_REGION: 'us-east-1', DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'), TESSERA_TABLE: host.config.tableName, TESSERA_DATA_DIR: host.config.dataDir, ...env },
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

    // Two events swapped (their numbers exchanged, their own digests recomputed): each digest
    // matches its event, but the first of them does not name the digest of the event before it.
    await putBack(redigested({ ...e5, seq: 6 }));
    await putBack(redigested({ ...e6, seq: 5 }));
    expect(await checkAuditChain(host.deps, { tenantId: tenant.tenantId })).toMatchObject({ ok: false, brokenAt: { seq: 5, eventId: e6.event_id, reason: 'prev_digest is not the digest of the event before it' } });
    await putBack(e5);
    await putBack(e6);

    // An event deleted and covered: the later events renumbered, their digests recomputed, the
    // head moved to the new last one. Every digest matches; the first moved event does not link.
    await remove(e6);
    const moved = original.slice(6).map((e) => redigested({ ...e, seq: (e.seq as number) - 1 }));
    // (Each moved event keeps its item key: the put replaces it, leaving count - 1 events.)
    for (const e of moved) await putBack(e);
    await setHead(tenant.tenantId, { seq: count - 1, digest: moved.at(-1)!.digest });
    const covered = await verifyAudit(['--tenant', tenant.tenantId]);
    expect(covered.code, covered.out).toBe(3);
    expect(covered.out).toContain(`BROKEN at seq 6 (event ${e7.event_id as string}): prev_digest is not the digest of the event before it`);
    for (const e of original) await putBack(e);
    await setHead(tenant.tenantId, { seq: count, digest: original.at(-1)!.digest as string });

    // The newest event gone: the chain's head still names it.
    const last = original.at(-1)!;
    await host.documents.send(new DeleteCommand({ TableName: host.config.tableName, Key: { PK: last.PK, SK: last.SK } }));
    expect(await checkAuditChain(host.deps, { tenantId: tenant.tenantId })).toMatchObject({ ok: false, brokenAt: { seq: count } });
    await putBack(last);

    expect(await checkAuditChain(host.deps, { tenantId: tenant.tenantId })).toEqual({ ok: true, count });
  });

  it('verify-audit compares the chain with its anchor: a cut chain, a deleted log and a rewritten past are broken', async () => {
    const own = await createTestTenant(host.deps, { mfaMode: 'OFF' });
    const token = (await login(http, clock, own.admin.email)).accessToken;
    for (let i = 0; i < 3; i++) {
      const res = await http.request('POST', '/v1/users', { token, body: { email: `a${i}@${own.domain}`, role: 'viewer', password: 'correct horse battery staple' } });
      expect(res.status).toBe(201);
    }
    const pk = keys.identityAuditEvents(own.tenantId).PK;
    const original = await storedEvents(pk);
    const count = original.length;
    // tenant_created, login_succeeded, three user_created
    expect(count).toBe(5);
    const where = `tenant ${own.slug} (${own.tenantId}), identity audit log`;

    // By slug as well as by id.
    const bySlug = await verifyAudit(['--tenant', own.slug]);
    expect(bySlug.code, bySlug.out).toBe(0);
    expect(bySlug.out).toContain(`OK: ${count} events, chain intact and anchored (${where})`);

    // The newest event deleted and the head moved back to the one before: the table alone
    // holds together, the anchor still names the deleted head.
    const last = original.at(-1)!;
    await remove(last);
    await setHead(own.tenantId, { seq: count - 1, digest: original.at(-2)!.digest as string });
    const cut = await verifyAudit(['--tenant', own.tenantId]);
    expect(cut.code, cut.out).toBe(3);
    expect(cut.out).toContain(`BROKEN at seq ${count} (event none): the anchor recorded the head at seq ${count}: events after seq ${count - 1} are missing (the chain was cut) (${where}; ${count - 1} events verified before it)`);
    await putBack(last);
    await setHead(own.tenantId, { seq: count, digest: last.digest as string });
    expect((await verifyAudit(['--tenant', own.tenantId])).code).toBe(0);

    // The whole log deleted, head and all.
    for (const e of original) await remove(e);
    await host.documents.send(new DeleteCommand({ TableName: host.config.tableName, Key: keys.identityAuditChainHead(own.tenantId) }));
    const gone = await verifyAudit(['--tenant', own.slug]);
    expect(gone.code, gone.out).toBe(3);
    expect(gone.out).toContain(`BROKEN at seq 1 (event none): the anchor recorded the head at seq ${count}: events after seq 0 are missing (the chain was cut, or the whole log deleted)`);
    for (const e of original) await putBack(e);
    await setHead(own.tenantId, { seq: count, digest: last.digest as string });

    // The past rewritten with every link and digest recomputed (an edited event 3, then
    // everything after it relinked, the head moved): the chain verifies on its own, but the
    // anchor recorded other digests.
    const rewritten: Record<string, unknown>[] = [];
    let previous = original[1]!.digest as string;
    for (const e of original.slice(2)) {
      const changed = redigested({ ...e, prev_digest: previous, ...(e.seq === 3 ? { payload: { ...(e.payload as object), role: 'admin' } } : {}) });
      rewritten.push(changed);
      previous = changed.digest;
    }
    for (const e of rewritten) await putBack(e);
    await setHead(own.tenantId, { seq: count, digest: previous });
    const forged = await verifyAudit(['--tenant', own.tenantId]);
    expect(forged.code, forged.out).toBe(3);
    expect(forged.out).toContain(`BROKEN at seq 3 (event ${original[2]!.event_id as string}): the anchor recorded another digest for seq 3: the chain was rewritten from there`);
    for (const e of original) await putBack(e);
    await setHead(own.tenantId, { seq: count, digest: last.digest as string });
    expect((await verifyAudit(['--tenant', own.slug])).code).toBe(0);
  });

  it('verify-audit refuses an unknown tenant or workspace (exit 1, saying which), and calls an existing tenant\'s missing log broken', async () => {
    for (const unknown of ['no-such-tenant', 'ten_nosuchtenant000000']) {
      const res = await verifyAudit(['--tenant', unknown]);
      expect(res.code, res.out).toBe(1);
      expect(res.out).toContain(`tessera: no tenant ${unknown} (give its slug or its id)`);
      expect(res.out).not.toContain('OK');
    }
    const workspace = await verifyAudit(['--tenant', tenant.slug, '--workspace', 'ws_nosuchworkspace0000']);
    expect(workspace.code, workspace.out).toBe(1);
    expect(workspace.out).toContain(`tessera: no workspace ws_nosuchworkspace0000 in tenant ${tenant.slug} (${tenant.tenantId})`);

    // A tenant whose log is gone, checked against an anchor that never saw it (a data
    // directory lost with the table kept): an empty identity log is never a tenant's own.
    const bare = await createTestTenant(host.deps);
    for (const e of await storedEvents(keys.identityAuditEvents(bare.tenantId).PK)) await remove(e);
    await host.documents.send(new DeleteCommand({ TableName: host.config.tableName, Key: keys.identityAuditChainHead(bare.tenantId) }));
    const elsewhere = await mkdtemp(path.join(tmpdir(), 'tessera-anchorless-'));
    try {
      const empty = await verifyAudit(['--tenant', bare.slug], { TESSERA_DATA_DIR: elsewhere });
      expect(empty.code, empty.out).toBe(3);
      expect(empty.out).toContain("BROKEN at seq 1 (event none): the identity log is empty: every tenant's log starts with tenant_created (the whole log was deleted)");
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });
});
