/**
 * Runs survive the death of the function that carries them. A run whose next step is lost
 * between two steps (a crashed worker after its commit) stalls, is found by the stalled-run
 * recovery and resumes from its checkpoint; a step that dies in the middle of its writes is
 * delivered again and redone. Either way the inventory ends exactly as an uninterrupted run's,
 * and nothing secret reaches an answer, the table in plaintext, or a log line. A step redone
 * after it wrote a changed entity still reports what changed in it (its first attempt's record
 * of it), once.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { RunMessage } from '../../shared/runs/run-queue';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { buildOrg, oktaApp, oktaGroup, oktaToken, oktaUser, startFakeOkta, type FakeOkta } from '../../infra/local/stand-ins/okta';
import { listAll, readRun, runToEnd, type ChangeBody, type EntityBody, type RelationshipBody, type RunBody } from '../support/runs';
import { startTestHost, type TestHost } from '../support/test-host';
import { createConnection as createConnectionOver, oktaConnectionBody } from '../support/connections';

// Logs on, and captured: the test below reads every line the service wrote. Set back after the
// file: other files may run in this process after it (vitest.config.ts, isolate).
const logLevel = process.env.POWERTOOLS_LOG_LEVEL;
process.env.POWERTOOLS_LOG_LEVEL = 'DEBUG';
const logLines: string[] = [];
const capture = (chunk: string | Uint8Array) => {
  logLines.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
  return true;
};
const captureStdout = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
const captureStderr = vi.spyOn(process.stderr, 'write').mockImplementation(capture);

let okta: FakeOkta;
let host: TestHost;
let http: HttpClient;
let token: string;
const clock = new MovableClock();
let deliveryRule: (message: RunMessage, receiveCount: number) => 'deliver' | 'drop' = () => 'deliver';

const users = Array.from({ length: 9 }, (_, i) => oktaUser(i + 1));
const groups = Array.from({ length: 4 }, (_, i) => oktaGroup(i + 1));
const apps = [oktaApp(1), oktaApp(2)];

beforeAll(async () => {
  okta = await startFakeOkta({
    org: buildOrg({
      users,
      groups,
      members: Object.fromEntries(groups.map((g, i) => [g.id, users.filter((_, u) => u % (i + 2) === 0).map((u) => u.id)])),
      apps,
      appGroups: { [apps[0]!.id]: [groups[0]!.id, groups[1]!.id], [apps[1]!.id]: [groups[3]!.id] },
    }),
    maxPage: 2,
  });
  host = await startTestHost({
    clock,
    env: { TESSERA_CONNECTOR_ENDPOINTS: JSON.stringify({ okta: okta.url }), TESSERA_RUN_PAGES_PER_STEP: '1', TESSERA_RUN_STALL_SECONDS: '60' },
    runQueue: { beforeDelivery: (message, count) => deliveryRule(message, count) },
    schedulerIntervalMs: 3_600_000, // ticked by hand below
  });
  http = api(host.url);
  const tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  token = (await login(http, clock, tenant.admin.email)).accessToken;
});
afterAll(async () => {
  if (logLevel === undefined) delete process.env.POWERTOOLS_LOG_LEVEL;
  else process.env.POWERTOOLS_LOG_LEVEL = logLevel;
  captureStdout.mockRestore();
  captureStderr.mockRestore();
  await host?.close();
  await okta?.close();
});

const createConnection = (name: string) => createConnectionOver(http, token, oktaConnectionBody(name, oktaToken));

/** The inventory by what it says (kinds and provider ids), comparable across connections. */
async function contentOf(id: string): Promise<{ entities: string[]; relationships: string[] }> {
  const entities = await listAll<EntityBody>(http, token, `/v1/connections/${id}/entities`, 'entities');
  const relationships = await listAll<RelationshipBody>(http, token, `/v1/connections/${id}/relationships`, 'relationships');
  return {
    entities: entities.map((e) => `${e.kind} ${e.source_id} ${e.display_name} ${JSON.stringify(e.attributes)}`).sort(),
    relationships: relationships.map((r) => `${r.kind} ${r.from_source_id} > ${r.to_source_id}`).sort(),
  };
}

let reference: { entities: string[]; relationships: string[] };
let referenceRun: RunBody;

describe('runs that resume', () => {
  it('an uninterrupted run, for reference', async () => {
    referenceRun = await runToEnd(http, host, token, await createConnection('reference'));
    expect(referenceRun.status).toBe('succeeded');
    expect(referenceRun.stats.steps).toBeGreaterThan(10);
    reference = await contentOf(referenceRun.connection_id);
  });

  it('a run killed between two steps stalls, resumes from its checkpoint and ends with the same inventory', async () => {
    const id = await createConnection('killed between steps');
    let dropped: RunMessage | undefined;
    deliveryRule = (message) => {
      if (message.type === 'run_step' && message.connection_id === id && message.step === 4 && !dropped) {
        dropped = message; // the worker died after step 3 committed and queued step 4
        return 'drop';
      }
      return 'deliver';
    };
    const started = await http.request('POST', `/v1/connections/${id}/runs`, { token });
    expect(started.status).toBe(202);
    const runId = (started.body as RunBody).run_id;
    await host.runQueue.idle();
    expect(dropped).toBeDefined();
    expect(await readRun(http, token, id, runId)).toMatchObject({ status: 'running', stats: { steps: 4 } });

    // Meanwhile a manual run is refused, naming the run in progress.
    const second = await http.request('POST', `/v1/connections/${id}/runs`, { token });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: 'conflict', detail: expect.stringContaining(runId) });

    // Not stalled yet: the recovery leaves it alone.
    await host.scheduler!.tick();
    await host.runQueue.idle();
    expect(await readRun(http, token, id, runId)).toMatchObject({ status: 'running', stats: { steps: 4 } });

    clock.advance(61); // past the time it had to show progress by
    await host.scheduler!.tick();
    await host.runQueue.idle();
    const run = await readRun(http, token, id, runId);
    expect(run).toMatchObject({ status: 'succeeded', counts: referenceRun.counts, changes: referenceRun.changes });
    expect(await contentOf(id)).toEqual(reference);
  });

  it('a step that dies in the middle of its writes is delivered again, and the run ends with the same inventory', async () => {
    deliveryRule = () => 'deliver';
    const id = await createConnection('killed mid-step');
    const call = host.deps.db.call.bind(host.deps.db);
    let batchWrites = 0;
    const crashing: typeof call = (operation, input) => {
      // The 6th inventory write of the run throws once, after five pages' writes landed.
      if (operation === 'BatchWriteItem' && ++batchWrites === 6) return Promise.reject(new Error('the function died here'));
      return call(operation, input);
    };
    const crash = vi.spyOn(host.deps.db, 'call').mockImplementation(crashing);
    try {
      const run = await runToEnd(http, host, token, id);
      expect(batchWrites).toBeGreaterThan(6);
      expect(run).toMatchObject({ status: 'succeeded', counts: referenceRun.counts, changes: referenceRun.changes });
      expect(await contentOf(id)).toEqual(reference);
    } finally {
      crash.mockRestore();
    }
  });

  it('a sweep step that dies between recording its removals and deleting them is redone, and reports each removal once', async () => {
    deliveryRule = () => 'deliver';
    const reference = await createConnection('sweep reference');
    const crashed = await createConnection('sweep crashed');
    expect((await runToEnd(http, host, token, reference)).status).toBe('succeeded');
    expect((await runToEnd(http, host, token, crashed)).status).toBe('succeeded');
    const before = okta.state.org;
    // Users 1, 2 and 4 leave: their accounts, principals and memberships go at the next sweep.
    okta.state.org = buildOrg({
      users: users.filter((_, u) => ![0, 1, 3].includes(u)),
      groups,
      members: Object.fromEntries(groups.map((g, i) => [g.id, users.filter((_, u) => u % (i + 2) === 0 && ![0, 1, 3].includes(u)).map((u) => u.id)])),
      apps,
      appGroups: { [apps[0]!.id]: [groups[0]!.id, groups[1]!.id], [apps[1]!.id]: [groups[3]!.id] },
    });
    const changesOf = async (run: RunBody) =>
      (await listAll<{ change: string; kind: string; source_id: string; to_source_id?: string }>(http, token, `/v1/connections/${run.connection_id}/runs/${run.run_id}/changes`, 'changes', 3))
        .map((c) => `${c.change} ${c.kind} ${c.source_id}${c.to_source_id ? ` > ${c.to_source_id}` : ''}`)
        .sort();
    try {
      const expectedRun = await runToEnd(http, host, token, reference);
      const expectedChanges = await changesOf(expectedRun);
      expect(expectedChanges.filter((c) => c.startsWith('removed')).length).toBeGreaterThan(6);

      const call = host.deps.db.call.bind(host.deps.db);
      let crashes = 0;
      const crashing: typeof call = (operation, input) => {
        // The first delete of the sweep throws once: the removals it found are recorded, the items not yet gone.
        const deleting = operation === 'BatchWriteItem' && JSON.stringify(input).includes('"DeleteRequest"');
        if (deleting && crashes++ === 0) return Promise.reject(new Error('the function died here'));
        return call(operation, input);
      };
      const crash = vi.spyOn(host.deps.db, 'call').mockImplementation(crashing);
      let run: RunBody;
      try {
        run = await runToEnd(http, host, token, crashed);
      } finally {
        crash.mockRestore();
      }
      expect(crashes).toBeGreaterThan(1);
      expect(run).toMatchObject({ status: 'succeeded', counts: expectedRun.counts, changes: expectedRun.changes });
      expect(await changesOf(run)).toEqual(expectedChanges);
      expect(await contentOf(crashed)).toEqual(await contentOf(reference));
    } finally {
      okta.state.org = before;
    }
  });

  it('a step that dies after writing a changed entity is redone, and reports what changed in it once, before and after', async () => {
    deliveryRule = () => 'deliver';
    const id = await createConnection('changed, crashed');
    expect((await runToEnd(http, host, token, id)).status).toBe('succeeded');
    const before = okta.state.org;
    // User 3 gets a new last name: the retried step finds its own write, the earlier content gone.
    okta.state.org = buildOrg({ ...before, users: users.map((u, i) => (i === 2 ? oktaUser(3, { lastName: 'Builder' }) : u)), members: Object.fromEntries(before.members), appGroups: Object.fromEntries(before.appGroups) });
    const call = host.deps.db.call.bind(host.deps.db);
    let changedWritten = false;
    let crashes = 0;
    const crashing: typeof call = (operation, input) => {
      if (operation !== 'BatchWriteItem') return call(operation, input);
      // The write after the changed entity's (the same step's) throws once: the step is delivered again.
      if (changedWritten && crashes++ === 0) return Promise.reject(new Error('the function died here'));
      if (JSON.stringify(input).includes('written_attribute_changes')) changedWritten = true;
      return call(operation, input);
    };
    const crash = vi.spyOn(host.deps.db, 'call').mockImplementation(crashing);
    let run: RunBody;
    try {
      run = await runToEnd(http, host, token, id);
    } finally {
      crash.mockRestore();
      okta.state.org = before;
    }
    expect(crashes).toBeGreaterThan(0);
    expect(run).toMatchObject({ status: 'succeeded', changes: { entities_added: 0, entities_removed: 0, entities_changed: 1, relationships_added: 0, relationships_removed: 0 } });
    const changes = await listAll<ChangeBody>(http, token, `/v1/connections/${id}/runs/${run.run_id}/changes`, 'changes');
    expect(changes).toEqual([expect.objectContaining({ change: 'changed', kind: 'Account', source_id: users[2]!.id, changed_attributes: [{ attribute: 'last_name', before: '3', after: 'Builder' }] })]);
  });

  it('never puts the provider token in an answer, an inventory item, a checkpoint or a log line', async () => {
    const id = await createConnection('secrets');
    const run = await runToEnd(http, host, token, id);
    const answers = [
      JSON.stringify(run),
      JSON.stringify(await listAll(http, token, `/v1/connections/${id}/runs`, 'runs')),
      JSON.stringify(await listAll(http, token, `/v1/connections/${id}/entities`, 'entities')),
      JSON.stringify(await listAll(http, token, `/v1/connections/${id}/relationships`, 'relationships')),
      JSON.stringify(await listAll(http, token, `/v1/connections/${id}/runs/${run.run_id}/changes`, 'changes')),
      JSON.stringify(await listAll(http, token, '/v1/audit-events', 'audit_events')),
    ];
    for (const answer of answers) expect(answer).not.toContain(oktaToken);
    const items: unknown[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await host.documents.send(new ScanCommand({ TableName: host.config.tableName, ExclusiveStartKey: startKey }));
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    expect(items.length).toBeGreaterThan(50);
    expect(JSON.stringify(items)).not.toContain(oktaToken);
    expect(logLines.join('')).toContain('run finished'); // the logs were captured (a crashed step's error too)...
    expect(logLines.join('')).toContain('the function died here');
    expect(logLines.join('')).not.toContain(oktaToken); // ...and hold no token
  });
});
