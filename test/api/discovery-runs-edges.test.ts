/**
 * Runs where they meet trouble. A run whose steps never arrive is resumed by the stalled-run
 * recovery at most three times, then failed with an internal error, which frees the connection
 * for its next run. A run that cannot read (a configuration that does not decrypt, every track
 * refused) fails without touching the inventory. Starts that lose a race to another start (a
 * stale view of the connection, as the dispatcher has from its index) are refused naming the
 * winner, or start nothing for a scheduled start. A run's lists refuse cursors they did not make.
 * The races come last: what they leave queued is never delivered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError } from '../../shared/errors';
import { dispatchDueRuns, dispatchTick, MAX_RECOVERIES, type DispatchReport } from '../../shared/runs/dispatcher';
import type { RunMessage } from '../../shared/runs/run-queue';
import { RunInProgressError, startRun } from '../../shared/runs/start-run';
import { keys } from '../../shared/store/keys';
import type { ConnectionRecord, RunRecord } from '../../shared/store/records';
import type { TableClient } from '../../shared/store/table-client';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { buildOrg, oktaToken, oktaUser, startFakeOkta, type FakeOkta } from '../../infra/local/stand-ins/okta';
import { listAll, readRun, runToEnd, type EntityBody } from '../support/runs';
import { startTestHost, type TestHost } from '../support/test-host';
import { createConnection as createConnectionOver, oktaConnectionBody } from '../support/connections';

let okta: FakeOkta;
let host: TestHost;
let http: HttpClient;
let token: string;
let email: string;
let tenantId: string;
let workspaceId: string;
const clock = new MovableClock();
/** Connections whose run steps are lost on the way (a queue that drops them). */
const losing = new Set<string>();

beforeAll(async () => {
  okta = await startFakeOkta({ org: buildOrg({ users: [oktaUser(1)], groups: [], members: {}, apps: [], appGroups: {} }) });
  host = await startTestHost({
    clock,
    env: { TESSERA_CONNECTOR_ENDPOINTS: JSON.stringify({ okta: okta.url }), TESSERA_RUN_STALL_SECONDS: '60' },
    runQueue: { beforeDelivery: (message: RunMessage) => ('connection_id' in message && losing.has(message.connection_id) ? 'drop' : 'deliver') },
    schedulerIntervalMs: 3_600_000, // ticked by hand below
  });
  http = api(host.url);
  const tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  email = tenant.admin.email;
  tenantId = tenant.tenantId;
  workspaceId = tenant.workspaceId;
  token = (await login(http, clock, email)).accessToken;
});
afterAll(async () => {
  await host?.close();
  await okta?.close();
});

const createConnection = (name: string) => createConnectionOver(http, token, oktaConnectionBody(name, oktaToken));

async function advanceAndSignIn(seconds: number): Promise<void> {
  clock.advance(seconds);
  token = (await login(http, clock, email)).accessToken;
}

describe('stalled runs', () => {
  it('are resumed three times, then failed with an internal error, which frees the connection', async () => {
    const id = await createConnection('lost steps');
    losing.add(id);
    const started = await http.request('POST', `/v1/connections/${id}/runs`, { token });
    expect(started.status).toBe(202);
    const runId = (started.body as { run_id: string }).run_id;
    await host.runQueue.idle();

    for (let recovery = 1; recovery <= MAX_RECOVERIES; recovery++) {
      await advanceAndSignIn(61);
      const report = await dispatchTick(host.deps);
      expect(report.resumed).toContain(runId);
      expect(report.failed).not.toContain(runId);
      await host.runQueue.idle();
      const stored = await host.deps.table.get<RunRecord>(keys.connectionRun(tenantId, workspaceId, id, runId));
      expect(stored).toMatchObject({ status: 'queued', recoveries: recovery });
    }
    await advanceAndSignIn(61);
    const report = await dispatchTick(host.deps);
    expect(report.failed).toContain(runId);
    expect(report.resumed).not.toContain(runId);

    const run = await readRun(http, token, id, runId);
    expect(run.status).toBe('failed');
    expect(run.errors).toEqual([expect.objectContaining({ category: 'internal', message: 'The run stopped unexpectedly and could not be resumed.' })]);
    // No pending track is left behind, and the connection takes its next run.
    const stored = await host.deps.table.get<RunRecord>(keys.connectionRun(tenantId, workspaceId, id, runId));
    expect(Object.values(stored!.progress.tracks).map((t) => t.status)).not.toContain('pending');
    losing.delete(id);
    const again = await http.request('POST', `/v1/connections/${id}/runs`, { token });
    expect(again.status).toBe(202);
    await host.runQueue.idle();
    // A later tick finds nothing of the failed run to resume or fail.
    await advanceAndSignIn(61);
    const later = await dispatchTick(host.deps);
    expect([...later.resumed, ...later.failed]).not.toContain(runId);
  });
});

describe('runs that cannot read', () => {
  it('a configuration that does not decrypt fails the run, every track failed, and keeps the inventory', async () => {
    const id = await createConnection('undecryptable');
    const other = await createConnection('ciphertext donor');
    expect((await runToEnd(http, host, token, id)).status).toBe('succeeded');
    const before = await listAll<EntityBody>(http, token, `/v1/connections/${id}/entities`, 'entities');
    expect(before.length).toBeGreaterThan(0);
    // Another connection's ciphertext: bound to that connection, it does not decrypt here.
    const donor = await host.deps.table.get<ConnectionRecord>(keys.connection(tenantId, workspaceId, other));
    await host.deps.table.update({
      Key: keys.connection(tenantId, workspaceId, id),
      UpdateExpression: 'SET configuration_encrypted = :c',
      ExpressionAttributeValues: { ':c': donor!.configuration_encrypted },
    });
    const run = await runToEnd(http, host, token, id);
    expect(run.status).toBe('failed');
    expect(run.errors).toEqual([expect.objectContaining({ category: 'configuration', message: 'The stored configuration of this connection cannot be decrypted' })]);
    const stored = await host.deps.table.get<RunRecord>(keys.connectionRun(tenantId, workspaceId, id, run.run_id));
    expect(Object.values(stored!.progress.tracks).map((t) => t.status)).toEqual(Object.values(stored!.progress.tracks).map(() => 'failed'));
    expect(await listAll<EntityBody>(http, token, `/v1/connections/${id}/entities`, 'entities')).toEqual(before);
  });

  it('every track refused: the run fails with each scope to grant, nothing is swept, and the inventory is kept', async () => {
    const id = await createConnection('all refused');
    expect((await runToEnd(http, host, token, id)).status).toBe('succeeded');
    const before = await listAll<EntityBody>(http, token, `/v1/connections/${id}/entities`, 'entities');
    expect(before.length).toBeGreaterThan(0);
    const granted = new Set(okta.state.scopes);
    expect(granted.size).toBeGreaterThan(0);
    okta.state.scopes.clear();
    try {
      const run = await runToEnd(http, host, token, id);
      // Nothing was read, so no sweep step follows the read.
      expect(run.stats).toMatchObject({ steps: 1, items_written: 0, items_deleted: 0 });
      expect(run.status).toBe('failed');
      expect(run.errors.map((e) => e.message).sort()).toEqual(['okta.apps.read', 'okta.groups.read', 'okta.users.read'].map((scope) => `The API token may not use ${scope}.`));
      expect(run.changes).toMatchObject({ entities_removed: 0, relationships_removed: 0 });
      expect(await listAll<EntityBody>(http, token, `/v1/connections/${id}/entities`, 'entities')).toEqual(before);
    } finally {
      for (const scope of granted) okta.state.scopes.add(scope);
    }
  });
});

describe('the lists of a run', () => {
  it('a page that ends exactly with the last change has no next cursor', async () => {
    const id = await createConnection('changes to the end');
    const run = await runToEnd(http, host, token, id);
    const total = Object.values(run.changes).reduce((sum, n) => sum + n, 0);
    expect(total).toBeGreaterThan(1);
    const page = await http.request('GET', `/v1/connections/${id}/runs/${run.run_id}/changes?limit=${total}`, { token });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ next_cursor: null });
    expect((page.body as { changes: unknown[] }).changes).toHaveLength(total);
  });

  it('refuses cursors that are not its own: altered, of another run, or not JSON at all', async () => {
    const id = await createConnection('forged cursors');
    const run = await runToEnd(http, host, token, id);
    const other = await runToEnd(http, host, token, id);
    const first = await http.request('GET', `/v1/connections/${id}/runs/${run.run_id}/changes?limit=1`, { token });
    const cursor = (first.body as { next_cursor: string }).next_cursor;
    expect(typeof cursor).toBe('string');
    const entity = (await listAll<EntityBody>(http, token, `/v1/connections/${id}/entities`, 'entities'))[0]!;
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
    const refused = [
      `/v1/connections/${id}/runs/${other.run_id}/changes?cursor=${cursor}`,
      `/v1/connections/${id}/runs/${run.run_id}/changes?cursor=${b64({ sk: 'elsewhere', i: 0 })}`,
      `/v1/connections/${id}/runs/${run.run_id}/changes?cursor=${b64([1])}`,
      `/v1/connections/${id}/runs/${run.run_id}/changes?cursor=${b64('text')}`,
      `/v1/connections/${id}/runs/${run.run_id}/changes?cursor=bm90IGpzb24`,
      `/v1/connections/${id}/relationships?entity_id=${entity.entity_id}&cursor=${b64({ s: 99, c: null })}`,
      `/v1/connections/${id}/relationships?cursor=${b64({ s: -1, c: 'x' })}`,
    ];
    for (const path of refused) {
      const res = await http.request('GET', path, { token });
      expect(res.status, path).toBe(400);
      expect(res.body, path).toMatchObject({ errors: [{ path: 'cursor' }] });
    }
  });
});

describe('late and duplicate step deliveries', () => {
  it('a step of a finished or unknown run, or of a connection that is gone, changes nothing', async () => {
    const id = await createConnection('late steps');
    const run = await runToEnd(http, host, token, id);
    const runKey = keys.connectionRun(tenantId, workspaceId, id, run.run_id);
    const finished = await host.deps.table.get<RunRecord>(runKey);
    const scope = { tenant_id: tenantId, workspace_id: workspaceId, connection_id: id };
    await host.runQueue.send({ type: 'run_step', ...scope, run_id: run.run_id, step: 0 });
    await host.runQueue.send({ type: 'run_step', ...scope, run_id: 'run_unknown', step: 0 });
    await host.runQueue.idle();
    expect(await host.deps.table.get<RunRecord>(runKey)).toEqual(finished);

    // A queued run whose connection item is gone (its purge not yet done): the step does nothing.
    losing.add(id);
    const started = await http.request('POST', `/v1/connections/${id}/runs`, { token });
    expect(started.status).toBe(202);
    const queuedKey = keys.connectionRun(tenantId, workspaceId, id, (started.body as { run_id: string }).run_id);
    await host.runQueue.idle();
    await host.deps.table.delete({ Key: keys.connection(tenantId, workspaceId, id) });
    losing.delete(id);
    await host.runQueue.send({ type: 'run_step', ...scope, run_id: (started.body as { run_id: string }).run_id, step: 0 });
    await host.runQueue.idle();
    expect(await host.deps.table.get<RunRecord>(queuedKey)).toMatchObject({ status: 'queued', started_at: null, progress: { step: 0 } });
  });
});

describe('starts that lose a race', () => {
  it('a manual start on a stale view of the connection answers 409 naming the run that won', async () => {
    const id = await createConnection('raced manual');
    const connectionKey = keys.connection(tenantId, workspaceId, id);
    const stale = (await host.deps.table.get<ConnectionRecord>(connectionKey))!;
    losing.add(id); // the winner stays queued
    const winner = await http.request('POST', `/v1/connections/${id}/runs`, { token });
    expect(winner.status).toBe(202);
    const winnerId = (winner.body as { run_id: string }).run_id;

    const scope = { tenantId, workspaceId };
    const lost = startRun(host.deps, { scope, connectionId: id, trigger: 'manual', actorId: null, sourceIp: null }, stale);
    await expect(lost).rejects.toBeInstanceOf(RunInProgressError);
    await expect(lost).rejects.toMatchObject({ runId: winnerId });
    const runs = (await http.request('GET', `/v1/connections/${id}/runs`, { token })).body as { runs: { run_id: string }[] };
    expect(runs.runs.map((r) => r.run_id)).toEqual([winnerId]);
    losing.delete(id);
  });

  it('a scheduled start whose slot another dispatcher took starts nothing', async () => {
    const id = await createConnection('raced schedule');
    const stale = (await host.deps.table.get<ConnectionRecord>(keys.connection(tenantId, workspaceId, id)))!;
    const scope = { tenantId, workspaceId };
    const slot = stale.next_run_at!;
    losing.add(id);
    const first = await startRun(host.deps, { scope, connectionId: id, trigger: 'schedule', actorId: null, sourceIp: null, slot }, stale);
    expect(first?.status).toBe('queued');
    const second = await startRun(host.deps, { scope, connectionId: id, trigger: 'schedule', actorId: null, sourceIp: null, slot }, stale);
    expect(second).toBeUndefined();
    const runs = (await http.request('GET', `/v1/connections/${id}/runs`, { token })).body as { runs: { run_id: string }[] };
    expect(runs.runs.map((r) => r.run_id)).toEqual([first!.run_id]);
    losing.delete(id);
  });

  it('a start on a connection deleted meanwhile is a 404, and writes no run', async () => {
    const id = await createConnection('deleted meanwhile');
    const stale = (await host.deps.table.get<ConnectionRecord>(keys.connection(tenantId, workspaceId, id)))!;
    expect((await http.request('DELETE', `/v1/connections/${id}`, { token })).status).toBe(204);
    const lost = startRun(host.deps, { scope: { tenantId, workspaceId }, connectionId: id, trigger: 'schedule', actorId: null, sourceIp: null }, stale);
    await expect(lost).rejects.toBeInstanceOf(NotFoundError);
    const left = await host.deps.table.queryRaw(keys.connectionRuns(tenantId, workspaceId, id));
    expect(left.items).toEqual([]);
  });
});

describe('a tick that read the due index before another tick', () => {
  it('does not skip a busy slot the other tick already moved on', async () => {
    const id = await createConnection('busy slot raced');
    losing.add(id); // its run stays queued: the connection is busy
    expect((await http.request('POST', `/v1/connections/${id}/runs`, { token })).status).toBe(202);
    const key = keys.connection(tenantId, workspaceId, id);
    const read = (await host.deps.table.get<ConnectionRecord>(key))!;
    await advanceAndSignIn((Date.parse(read.next_run_at!) - clock.now().getTime()) / 1000 + 60);
    // The other tick: it skips the slot and moves it to the next day.
    const first = await dispatchTick(host.deps);
    expect(first.skipped).toContain(id);
    const moved = (await host.deps.table.get<ConnectionRecord>(key))!.next_run_at;
    expect(moved).not.toBe(read.next_run_at);
    // This tick still holds the index entry as it was before the move.
    const staleIndex = Object.create(host.deps.table, { queryIndexUpTo: { value: (_index: string, shard: string) => Promise.resolve(shard === keys.dueConnection(id, read.next_run_at!).GSI1PK ? [read] : []) } }) as TableClient;
    const report: DispatchReport = { started: [], skipped: [], resumed: [], failed: [] };
    await dispatchDueRuns({ ...host.deps, table: staleIndex }, report);
    expect(report).toEqual({ started: [], skipped: [], resumed: [], failed: [] });
    expect((await host.deps.table.get<ConnectionRecord>(key))!.next_run_at).toBe(moved);
  });
});
