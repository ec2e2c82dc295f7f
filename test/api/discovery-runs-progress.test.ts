/**
 * A run's progress as a client polls it over HTTP: the run is `running` with its `started_at`
 * as soon as its first step starts, its `progress` grows while a step reads (the Okta fake is
 * paused and let through a few requests at a time, so every observation is at a known point),
 * and a finished run keeps its last progress.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { buildOrg, oktaApp, oktaGroup, oktaToken, oktaUser, startFakeOkta, type FakeOkta } from '../../infra/local/stand-ins/okta';
import { readRun, type RunBody } from '../support/runs';
import { startTestHost, type TestHost } from '../support/test-host';

let okta: FakeOkta;
let host: TestHost;
let http: HttpClient;
let token: string;
const clock = new MovableClock();

const users = Array.from({ length: 12 }, (_, i) => oktaUser(i + 1));
const groups = [oktaGroup(1, 'eng'), oktaGroup(2, 'ops')];
const apps = [oktaApp(1, 'Jira')];

beforeAll(async () => {
  okta = await startFakeOkta({
    org: buildOrg({ users, groups, members: { [groups[0]!.id]: users.slice(0, 5).map((u) => u.id), [groups[1]!.id]: users.slice(5, 8).map((u) => u.id) }, apps, appGroups: { [apps[0]!.id]: [groups[0]!.id] } }),
    maxPage: 2,
  });
  // One step reads the whole org (no page limit), refreshing its progress after every page.
  host = await startTestHost({ clock, env: { TESSERA_CONNECTOR_ENDPOINTS: JSON.stringify({ okta: okta.url }), TESSERA_RUN_PROGRESS_SECONDS: '0' } });
  http = api(host.url);
  const tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  token = (await login(http, clock, tenant.admin.email)).accessToken;
});
afterAll(async () => {
  okta?.resume();
  await host?.close();
  await okta?.close();
});

type ProgressBody = {
  phase: string;
  requests: number;
  pages: number;
  items_written: number;
  throttled_seconds: number;
  tracks: Record<string, { status: string; pages: number }>;
};
type RunWithProgress = RunBody & { queued_at: string; started_at: string | null; progress: ProgressBody };

/** Polls until `ready` holds (a bounded number of times: the run moves only when the fake lets it). */
async function until<T>(read: () => Promise<T>, ready: (value: T) => boolean, what: string): Promise<T> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const value = await read();
    if (ready(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`never happened: ${what}`);
}

describe('a run in progress', () => {
  it('is running with its started_at from its first step, shows its progress growing, and keeps it when it ends', async () => {
    const created = await http.request('POST', '/v1/connections', {
      token,
      body: { integration_id: 'int_okta_discovery', name: 'progress', scope: {}, schedule: { type: 'daily', hour: 3, minute: 0 }, configuration: { org_url: 'https://tessera-test.okta.com', api_token: oktaToken } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = (created.body as { connection_id: string }).connection_id;
    const runOf = (runId: string) => readRun(http, token, id, runId) as Promise<RunWithProgress>;

    okta.pause();
    const started = await http.request('POST', `/v1/connections/${id}/runs`, { token });
    expect(started.status).toBe(202);
    const queued = started.body as RunWithProgress;
    expect(queued).toMatchObject({ status: 'queued', started_at: null });
    expect(queued.progress).toEqual({
      phase: 'reading', requests: 0, pages: 0, items_written: 0, throttled_seconds: 0,
      tracks: { users: { status: 'pending', pages: 0 }, groups: { status: 'pending', pages: 0 }, apps: { status: 'pending', pages: 0 } },
    });

    // The first step has started: its first requests wait at the provider.
    await until(() => Promise.resolve(okta.waiting), (waiting) => waiting > 0, 'a request at the paused provider');
    const first = await runOf(queued.run_id);
    expect(first.status).toBe('running');
    expect(first.started_at).not.toBeNull();
    expect(Date.parse(first.started_at!)).toBeGreaterThanOrEqual(Date.parse(first.queued_at));
    expect(first.progress).toMatchObject({ phase: 'reading', pages: 0, items_written: 0 });

    okta.allow(3);
    const second = await until(() => runOf(queued.run_id), (run) => run.progress.pages === 3 && run.progress.items_written > 0, 'three pages shown, written');
    expect(second).toMatchObject({ status: 'running', started_at: first.started_at, finished_at: null });
    expect(second.progress.requests).toBeGreaterThanOrEqual(3);
    expect(Object.values(second.progress.tracks).some((t) => t.status === 'reading')).toBe(true);
    const listed = (await http.request('GET', `/v1/connections/${id}/runs`, { token })).body as { runs: RunWithProgress[] };
    expect(listed.runs.find((r) => r.run_id === queued.run_id)?.progress.pages).toBeGreaterThanOrEqual(3);

    okta.allow(4);
    const third = await until(() => runOf(queued.run_id), (run) => run.progress.pages === 7 && run.progress.items_written > second.progress.items_written, 'seven pages shown, written');
    expect(third.status).toBe('running');
    expect(third.progress.requests).toBeGreaterThan(second.progress.requests);

    okta.resume();
    await host.runQueue.idle();
    const finished = await runOf(queued.run_id);
    expect(finished).toMatchObject({ status: 'succeeded', started_at: first.started_at });
    expect(Date.parse(finished.finished_at!)).toBeGreaterThanOrEqual(Date.parse(finished.started_at!));
    // Users: 6 pages of 2; groups: the list and each group's members; apps: the list and its groups.
    const pages = okta.calls.filter((c) => c.status === 200).length;
    expect(finished.progress).toMatchObject({
      phase: 'finalizing', pages, requests: okta.calls.length, items_written: finished.stats.items_written,
      tracks: { users: { status: 'done', pages: 6 }, groups: { status: 'done' }, apps: { status: 'done' } },
    });
    expect(finished.progress.items_written).toBeGreaterThan(third.progress.items_written);
  });
});
