/**
 * Scheduled runs on the local host's own clock (a movable one here): a schedule fires by
 * itself while the host runs, `next_run_at` follows the IANA time zone across a DST change, two
 * dispatchers racing for one slot start one run, and a slot that comes while the connection's
 * run is still going is skipped rather than run twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeps } from '../../functions/start/deps-assembly';
import { dispatchTick } from '../../shared/runs/dispatcher';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { buildOrg, oktaToken, oktaUser, startFakeOkta, type FakeOkta } from '../../infra/local/stand-ins/okta';
import type { RunBody } from '../support/runs';
import { startTestHost, type TestHost } from '../support/test-host';

let okta: FakeOkta;
let host: TestHost;
let http: HttpClient;
let token: string;
let tenantEmail: string;
const clock = new MovableClock();

beforeAll(async () => {
  okta = await startFakeOkta({ org: buildOrg({ users: [oktaUser(1), oktaUser(2)], groups: [], members: {}, apps: [], appGroups: {} }) });
  // Short steps: a provider that hangs holds a step for 2 s, not the default 2 minutes.
  host = await startTestHost({ clock, env: { TESSERA_CONNECTOR_ENDPOINTS: JSON.stringify({ okta: okta.url }), TESSERA_RUN_STEP_SECONDS: '2' }, schedulerIntervalMs: 50 });
  http = api(host.url);
  const tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  tenantEmail = tenant.admin.email;
  token = (await login(http, clock, tenantEmail)).accessToken;
});
afterAll(async () => {
  await host?.close();
  await okta?.close();
});

async function createConnection(name: string, schedule: Record<string, unknown>): Promise<{ connection_id: string; next_run_at: string; schedule: Record<string, unknown> }> {
  const res = await http.request('POST', '/v1/connections', {
    token,
    body: { integration_id: 'int_okta_discovery', name, scope: {}, schedule, configuration: { org_url: 'https://tessera-test.okta.com', api_token: oktaToken } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { connection_id: string; next_run_at: string; schedule: Record<string, unknown> };
}

const runsOf = async (id: string) => ((await http.request('GET', `/v1/connections/${id}/runs`, { token })).body as { runs: RunBody[] }).runs;
const connectionOf = async (id: string) => (await http.request('GET', `/v1/connections/${id}`, { token })).body as { next_run_at: string; last_run_at: string | null; status: string };

/** Moves the clock to an instant (it only goes forward) and signs in again there. */
async function travelTo(iso: string): Promise<void> {
  const seconds = (Date.parse(iso) - clock.now().getTime()) / 1000;
  expect(seconds).toBeGreaterThan(0);
  clock.advance(seconds);
  token = (await login(http, clock, tenantEmail)).accessToken;
}

/** Waits for the host's own scheduler (ticking every 50 ms) to have started and finished runs. */
async function untilRuns(id: string, count: number): Promise<RunBody[]> {
  for (let attempt = 0; attempt < 400; attempt++) {
    await host.runQueue.idle();
    const runs = await runsOf(id);
    if (runs.length >= count && runs.every((r) => r.status !== 'queued' && r.status !== 'running')) return runs;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no ${count} finished runs of ${id}`);
}

describe('scheduled runs', () => {
  it('refuses a time zone that does not exist, in words that name it', async () => {
    const res = await http.request('POST', '/v1/connections', {
      token,
      body: { integration_id: 'int_okta_discovery', name: 'bad tz', scope: {}, schedule: { type: 'daily', hour: 1, minute: 0, timezone: 'Mars/Olympus_Mons' }, configuration: { org_url: 'https://tessera-test.okta.com', api_token: oktaToken } },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errors: [{ path: 'schedule.timezone', message: expect.stringContaining('IANA time zone') }] });
  });

  it('fires on the local host clock by itself, once, and moves next_run_at to the next day', async () => {
    await travelTo('2027-02-01T10:00:00Z');
    const created = await createConnection('fires', { type: 'daily', hour: 10, minute: 30 });
    expect(created.next_run_at).toBe('2027-02-01T10:30:00.000Z');
    expect(created.schedule).toEqual({ type: 'daily', hour: 10, minute: 30, timezone: 'UTC' });
    expect(await runsOf(created.connection_id)).toEqual([]);

    await travelTo('2027-02-01T10:31:00Z');
    const runs = await untilRuns(created.connection_id, 1);
    expect(runs).toEqual([expect.objectContaining({ trigger: 'schedule', status: 'succeeded', counts: { entities: { Account: 2, Principal: 2 }, relationships: { principal_represents_account: 2 } } })]);
    const connection = await connectionOf(created.connection_id);
    expect(connection).toMatchObject({ next_run_at: '2027-02-02T10:30:00.000Z', status: 'healthy', last_run_at: runs[0]!.finished_at });
    // More ticks of the same day start nothing more.
    await host.scheduler!.tick();
    await host.scheduler!.tick();
    expect(await runsOf(created.connection_id)).toHaveLength(1);
  });

  it('puts next_run_at at the right instant across a DST change in the schedule time zone', async () => {
    // New York springs forward on 2027-03-14 at 02:00: 02:30 does not exist that day.
    await travelTo('2027-03-13T08:00:00Z');
    const created = await createConnection('dst', { type: 'daily', hour: 2, minute: 30, timezone: 'america/new_york' });
    expect(created.schedule.timezone).toBe('America/New_York');
    expect(created.next_run_at).toBe('2027-03-14T07:30:00.000Z'); // 03:30 EDT, shifted by the gap
    await travelTo('2027-03-14T07:31:00Z');
    await untilRuns(created.connection_id, 1);
    expect((await connectionOf(created.connection_id)).next_run_at).toBe('2027-03-15T06:30:00.000Z'); // 02:30 EDT
    await travelTo('2027-03-15T06:31:00Z');
    await untilRuns(created.connection_id, 2);
    expect((await connectionOf(created.connection_id)).next_run_at).toBe('2027-03-16T06:30:00.000Z');
  });

  it('starts one run when two dispatchers race for the same slot', async () => {
    await host.scheduler!.stop(); // only the two dispatchers below tick
    await travelTo('2027-04-01T00:00:00Z');
    const created = await createConnection('race', { type: 'daily', hour: 1, minute: 0 });
    await travelTo('2027-04-01T01:00:30Z');
    // A second dispatcher: another process with its own clients, on the same table and queue.
    const other = await createDeps(host.config, { clock, runQueue: host.runQueue });
    try {
      const reports = await Promise.all([dispatchTick(host.deps), dispatchTick(other), dispatchTick(host.deps), dispatchTick(other)]);
      const started = reports.flatMap((r) => r.started);
      const mine = (await runsOf(created.connection_id)).map((r) => r.run_id);
      expect(mine).toHaveLength(1);
      expect(started.filter((runId) => mine.includes(runId))).toHaveLength(1);
      await host.runQueue.idle();
      expect((await connectionOf(created.connection_id)).next_run_at).toBe('2027-04-02T01:00:00.000Z');
    } finally {
      other.db.destroy();
    }
  });

  it('skips a slot that comes while the connection is still running, instead of starting a second run', async () => {
    await travelTo('2027-05-01T00:00:00Z');
    const created = await createConnection('busy', { type: 'daily', hour: 0, minute: 5 });
    okta.state.hang = true; // the manual run below stays in its first step
    try {
      const manual = await http.request('POST', `/v1/connections/${created.connection_id}/runs`, { token });
      expect(manual.status).toBe(202);
      await travelTo('2027-05-01T00:06:00Z');
      const report = await dispatchTick(host.deps);
      expect(report.skipped).toContain(created.connection_id);
      expect(await runsOf(created.connection_id)).toHaveLength(1);
      expect((await connectionOf(created.connection_id)).next_run_at).toBe('2027-05-02T00:05:00.000Z');
    } finally {
      okta.state.hang = false;
    }
    await host.runQueue.idle(); // the manual run goes on and finishes once the provider answers
    expect((await runsOf(created.connection_id))[0]).toMatchObject({ trigger: 'manual', status: 'succeeded' });
  });

  it('keeps a time zone exactly as the client spelled it, through create, read and PATCH', async () => {
    // ICU answers Asia/Kathmandu and Asia/Kolkata with their deprecated aliases (Asia/Katmandu,
    // Asia/Calcutta): the client must get back what it sent, and the schedule still follows the zone.
    await travelTo('2027-06-01T00:00:00Z');
    const created = await createConnection('kathmandu', { type: 'daily', hour: 9, minute: 0, timezone: 'Asia/Kathmandu' });
    expect(created.schedule).toEqual({ type: 'daily', hour: 9, minute: 0, timezone: 'Asia/Kathmandu' });
    expect(created.next_run_at).toBe('2027-06-01T03:15:00.000Z'); // 09:00 at UTC+05:45
    const read = (await http.request('GET', `/v1/connections/${created.connection_id}`, { token })).body as { schedule: Record<string, unknown> };
    expect(read.schedule.timezone).toBe('Asia/Kathmandu');
    const listed = (await http.request('GET', '/v1/connections?limit=100', { token })).body as { connections: { connection_id: string; schedule: Record<string, unknown> }[] };
    expect(listed.connections.find((c) => c.connection_id === created.connection_id)?.schedule.timezone).toBe('Asia/Kathmandu');

    const patched = await http.request('PATCH', `/v1/connections/${created.connection_id}`, { token, body: { schedule: { type: 'daily', hour: 9, minute: 0, timezone: 'Asia/Kolkata' } } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({ schedule: { timezone: 'Asia/Kolkata' }, next_run_at: '2027-06-01T03:30:00.000Z' }); // 09:00 at UTC+05:30
    const reread = (await http.request('GET', `/v1/connections/${created.connection_id}`, { token })).body as { schedule: Record<string, unknown> };
    expect(reread.schedule.timezone).toBe('Asia/Kolkata');
  });
});
