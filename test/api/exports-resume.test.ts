/**
 * Exports written over many jobs (API.md "Access graph", Exports; shared/exports/export-job.ts):
 * with slices of no time (`TESSERA_EXPORT_SLICE_SECONDS=0`: each job stops at its first durable
 * checkpoint) and pages of two, an export of people or of every person's access takes a job per
 * page, and its file is byte for byte the file one job writes: every row once, the header once,
 * in CSV and NDJSON. A duplicate of every job's message, delivered while that job runs, writes
 * nothing and runs no job twice; a job that died after writing past its checkpoint is run
 * again, and what it wrote past the checkpoint is cut away; a lost message to the next job is
 * sent again when the previous job's message comes back; an export that needs more jobs than
 * `exportMaxSlices` fails, saying so, and leaves no file behind.
 *
 * The slice's length and the cap are the host's configuration, set between exports of this file
 * (the job reads them from its deps at each delivery).
 */
import { appendFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportRecord } from '../../shared/exports/export-records';
import type { RunMessage } from '../../shared/runs/run-queue';
import { keys } from '../../shared/store/keys';
import { buildOrg, oktaApp, oktaGroup, oktaToken, oktaUser, startFakeOkta, type FakeOkta } from '../../infra/local/stand-ins/okta';
import { createConnection, oktaConnectionBody } from '../support/connections';
import { csvObjects } from '../support/csv';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { listAll, runToEnd } from '../support/runs';
import { startTestHost, type TestHost } from '../support/test-host';

let okta: FakeOkta;
let host: TestHost;
let http: HttpClient;
let tenant: TestTenant;
let token = '';
const clock = new MovableClock();

/** What the queue does to export messages, per test. */
let onExportDelivery: ((message: Extract<RunMessage, { type: 'export' }>, receiveCount: number) => 'deliver' | 'drop') | undefined;

// Eight people (one in no group: no access rows), three groups, three apps; a formula-like name.
const users = Array.from({ length: 8 }, (_, i) => oktaUser(i + 1, { login: `p${i + 1}@acme.test`, email: `person${i + 1}@example.com`, firstName: i === 2 ? '=SUM(A1)' : `P${i + 1}` }));
const groups = [oktaGroup(1, 'Payroll, users'), oktaGroup(2, 'Admins'), oktaGroup(3, 'Engineers')];
const apps = [oktaApp(1, 'Payroll'), oktaApp(2, 'Admin "Console"'), oktaApp(3, 'Build')];
const ids = (...n: number[]) => n.map((k) => users[k - 1]!.id);

interface Exported {
  id: string;
  record: { status: string; rows: number; error: string | null };
  text: string;
  /** The jobs the export took, from its record in the table. */
  slices: number;
}

async function exportWith(body: Record<string, unknown>, settings: { sliceSeconds: number; maxSlices?: number }): Promise<Exported> {
  host.deps.config.exportSliceSeconds = settings.sliceSeconds;
  host.deps.config.exportMaxSlices = settings.maxSlices ?? 500;
  try {
    const asked = await http.request('POST', '/v1/exports', { token, body });
    expect(asked.status, asked.text).toBe(202);
    const id = (asked.body as { export_id: string }).export_id;
    await host.runQueue.idle();
    return await readExport(id);
  } finally {
    host.deps.config.exportSliceSeconds = 0;
    host.deps.config.exportMaxSlices = 500;
  }
}

/** Asks for an export whose job `slice` never gets its message (lost on its way); the run goes quiet before it. */
async function exportLosing(slice: number, body: Record<string, unknown>): Promise<string> {
  onExportDelivery = (message) => (message.slice === slice ? 'drop' : 'deliver');
  try {
    const asked = await http.request('POST', '/v1/exports', { token, body });
    expect(asked.status, asked.text).toBe(202);
    await host.runQueue.idle();
    return (asked.body as { export_id: string }).export_id;
  } finally {
    onExportDelivery = undefined;
  }
}

/** Delivers job `slice`'s message again; the export then ends as the one-job export `alone` did, the same file. */
async function redeliverThenCompare(id: string, slice: number, alone: Exported): Promise<void> {
  await host.runQueue.send({ type: 'export', tenant_id: tenant.tenantId, workspace_id: tenant.workspaceId, export_id: id, slice });
  await host.runQueue.idle();
  const resumed = await readExport(id);
  expect(resumed.record).toMatchObject({ status: 'succeeded', rows: alone.record.rows });
  expect(resumed.slices).toBe(alone.slices);
  expect(resumed.text === alone.text, `${resumed.text}\n---\n${alone.text}`).toBe(true);
}

async function readExport(id: string): Promise<Exported> {
  const read = await http.request('GET', `/v1/exports/${id}`, { token });
  expect(read.status, read.text).toBe(200);
  const record = read.body as Exported['record'];
  const stored = await host.deps.table.get<ExportRecord>(keys.export(tenant.tenantId, tenant.workspaceId, id));
  const file = await http.request('GET', `/v1/exports/${id}/content`, { token });
  return { id, record, text: record.status === 'succeeded' ? (expect(file.status, file.text).toBe(200), file.text) : '', slices: stored?.slices ?? 0 };
}

const exportsDir = () => path.join(host.config.dataDir, 'exports', tenant.tenantId, tenant.workspaceId);

beforeAll(async () => {
  okta = await startFakeOkta({
    org: buildOrg({
      users,
      groups,
      members: { [groups[0]!.id]: ids(1, 2, 3, 4, 5), [groups[1]!.id]: ids(2, 4, 6), [groups[2]!.id]: ids(1, 7) },
      apps,
      appGroups: { [apps[0]!.id]: [groups[0]!.id], [apps[1]!.id]: [groups[1]!.id, groups[2]!.id], [apps[2]!.id]: [groups[2]!.id] },
    }),
  });
  host = await startTestHost({
    clock,
    env: { TESSERA_CONNECTOR_ENDPOINTS: JSON.stringify({ okta: okta.url }), TESSERA_EXPORT_PAGE_SIZE: '2', TESSERA_EXPORT_SLICE_SECONDS: '0' },
    runQueue: { beforeDelivery: (message, receiveCount) => (message.type === 'export' && onExportDelivery ? onExportDelivery(message, receiveCount) : 'deliver') },
  });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  token = (await login(http, clock, tenant.admin.email)).accessToken;
  const connectionId = await createConnection(http, token, oktaConnectionBody('okta', oktaToken, 'https://acme.okta.com'));
  expect((await runToEnd(http, host, token, connectionId)).status).toBe('succeeded');
}, 120_000);
afterAll(async () => {
  await host?.close();
  await okta?.close();
});

const ndjsonItems = (text: string) => text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as unknown);

describe('an export written over many jobs', () => {
  it('people and every person\'s access, in CSV and NDJSON: byte for byte the file one job writes, every row once, the header once', async () => {
    const people = await listAll<{ person_id: string; display_name: string }>(http, token, '/v1/people', 'people');
    expect(people.length).toBe(8);
    const access = (await Promise.all(people.map(async (p) => (await listAll<object>(http, token, `/v1/people/${p.person_id}/access`, 'access')).map((item) => ({ person: { person_id: p.person_id, display_name: p.display_name }, ...item }))))).flat();
    expect(access.length).toBeGreaterThan(8);
    const expected = { people, access } as Record<string, unknown[]>;

    for (const source of ['people', 'access'] as const) {
      for (const format of ['csv', 'ndjson'] as const) {
        const what = `${source} ${format}`;
        const one = await exportWith({ source, format }, { sliceSeconds: 120 });
        const many = await exportWith({ source, format }, { sliceSeconds: 0 });
        expect(one.record.status, what).toBe('succeeded');
        expect(many.record, what).toMatchObject({ status: 'succeeded', error: null, rows: expected[source]!.length });
        expect(one.slices, what).toBe(1);
        // A job per page of two rows at least (every person's access: a page per person at least).
        expect(many.slices, what).toBeGreaterThanOrEqual(Math.ceil(expected[source]!.length / 2));
        expect(many.text === one.text, `${what}: the files differ\n${many.text}\n---\n${one.text}`).toBe(true);
        if (format === 'ndjson') {
          expect(ndjsonItems(many.text), what).toEqual(expected[source]);
        } else {
          const { header, rows } = csvObjects(many.text);
          const headerLine = `${header.join(',')}\r\n`;
          expect(many.text.startsWith(headerLine), what).toBe(true);
          expect(many.text.split(headerLine).length, `${what}: the header once`).toBe(2);
          expect(rows.length, what).toBe(expected[source]!.length);
          const idsOf = source === 'people' ? rows.map((r) => r.person_id) : rows.map((r) => `${r['person.person_id']} ${r['target.entity_id']}`);
          const expectedIds = source === 'people' ? people.map((p) => p.person_id) : (access as unknown as { person: { person_id: string }; target: { entity_id: string } }[]).map((a) => `${a.person.person_id} ${a.target.entity_id}`);
          expect(idsOf, what).toEqual(expectedIds);
        }
      }
    }
  });

  it('a duplicate of each job\'s message, delivered while that job runs, writes nothing and runs no job twice', async () => {
    const alone = await exportWith({ source: 'access', format: 'csv' }, { sliceSeconds: 0 });
    let duplicates = 0;
    onExportDelivery = (message, receiveCount) => {
      // The queue's other worker takes the duplicate at once, while this delivery runs.
      if (receiveCount === 1 && !(message as { duplicate?: boolean }).duplicate) {
        duplicates++;
        void host.runQueue.send({ ...message, duplicate: true } as RunMessage);
      }
      return 'deliver';
    };
    try {
      const duplicated = await exportWith({ source: 'access', format: 'csv' }, { sliceSeconds: 0 });
      expect(duplicated.record).toMatchObject({ status: 'succeeded', rows: alone.record.rows });
      expect(duplicates).toBeGreaterThanOrEqual(alone.slices);
      expect(duplicated.slices).toBe(alone.slices);
      expect(duplicated.text === alone.text, `${duplicated.text}\n---\n${alone.text}`).toBe(true);
    } finally {
      onExportDelivery = undefined;
    }
  });

  it('a job that died after writing past its checkpoint is run again from the checkpoint, what it wrote past it cut away', async () => {
    const alone = await exportWith({ source: 'people', format: 'csv' }, { sliceSeconds: 0 });
    expect(alone.slices).toBeGreaterThan(3);
    // The third job's message is lost on its way (the run goes quiet after two jobs)...
    const id = await exportLosing(3, { source: 'people', format: 'csv' });
    const key = keys.export(tenant.tenantId, tenant.workspaceId, id);
    const stalled = (await host.deps.table.get<ExportRecord>(key))!;
    expect(stalled).toMatchObject({ status: 'running', slices: 2, lease_until: 0 });
    expect(stalled.checkpoint?.file).toMatchObject({ kind: 'file' });
    // ...as if it had begun, written past the checkpoint (more than the rest of the file) and died: its lease has run out.
    await host.deps.table.update({ Key: key, UpdateExpression: 'SET slices = :three, lease_until = :expired', ExpressionAttributeValues: { ':three': 3, ':expired': Date.now() - 1_000 } });
    await appendFile(path.join(exportsDir(), `${id}.csv.partial`), 'rows of a job that died,\r\n'.repeat(4_000));
    // The queue delivers that message again.
    await redeliverThenCompare(id, 3, alone);
  });

  it('a job whose message to the next was lost (its delivery failed after the checkpoint) sends it again when its own message comes back', async () => {
    const alone = await exportWith({ source: 'people', format: 'ndjson' }, { sliceSeconds: 0 });
    const id = await exportLosing(4, { source: 'people', format: 'ndjson' });
    expect(await host.deps.table.get<ExportRecord>(keys.export(tenant.tenantId, tenant.workspaceId, id))).toMatchObject({ status: 'running', slices: 3, lease_until: 0 });
    // The queue delivers the third job's message again, as SQS does when its handler failed.
    await redeliverThenCompare(id, 3, alone);
  });

  it('an export that needs more jobs than the cap fails, saying so, and leaves no file', async () => {
    const capped = await exportWith({ source: 'people', format: 'ndjson' }, { sliceSeconds: 0, maxSlices: 3 });
    expect(capped.record.status).toBe('failed');
    expect(capped.record.error).toMatch(/^The export did not finish within 3 jobs \(\d+ rows written\); narrow it with connection_id, person_id or since\/until$/);
    expect(capped.record.rows).toBe(0);
    const content = await http.request('GET', `/v1/exports/${capped.id}/content`, { token });
    expect(content.status).toBe(409);
    const files = await readdir(exportsDir());
    expect(files.filter((f) => f.startsWith(capped.id))).toEqual([]);
    // The same export within the cap succeeds: the cap, not the data, failed it.
    const within = await exportWith({ source: 'people', format: 'ndjson' }, { sliceSeconds: 0, maxSlices: 50 });
    expect(within.record.status).toBe('succeeded');
    expect(within.slices).toBeGreaterThan(3);
  });
});
