/**
 * The mass-removal guard over HTTP: a track that loses more than half of its entities (and at
 * least 50) since the last complete read is not swept, the run is `partial` with a `safety`
 * error naming the track and the counts, and stays so until a run started with
 * `confirm_removals: true` accepts the drop (audited); ordinary churn is swept as always.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { buildOrg, oktaToken, oktaUser, startFakeOkta, type FakeOkta } from '../../infra/local/stand-ins/okta';
import { countByKind, listAll, readRun, runToEnd, type EntityBody, type RunBody } from '../support/runs';
import { startTestHost, type TestHost } from '../support/test-host';
import { createConnection as createConnectionOver, oktaConnectionBody } from '../support/connections';

let okta: FakeOkta;
let host: TestHost;
let http: HttpClient;
let token: string;
const clock = new MovableClock();

/** An org of `count` users (from user `from` on), no groups or apps: the users track holds an Account and a Principal per user. */
const orgOf = (count: number, from = 1) => buildOrg({ users: Array.from({ length: count }, (_, i) => oktaUser(from + i)), groups: [], members: {}, apps: [], appGroups: {} });

beforeAll(async () => {
  okta = await startFakeOkta();
  host = await startTestHost({ clock, env: { TESSERA_CONNECTOR_ENDPOINTS: JSON.stringify({ okta: okta.url }) } });
  http = api(host.url);
  const tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  token = (await login(http, clock, tenant.admin.email)).accessToken;
});
afterAll(async () => {
  await host?.close();
  await okta?.close();
});

const createConnection = (name: string) => createConnectionOver(http, token, oktaConnectionBody(name, oktaToken));

const accountsOf = async (id: string) => countByKind(await listAll<EntityBody>(http, token, `/v1/connections/${id}/entities`, 'entities'));
const runsOf = async (id: string) => listAll<RunBody>(http, token, `/v1/connections/${id}/runs`, 'runs');

describe('the mass-removal guard', () => {
  it('holds a track that lost most of its entities, until a run confirms the removals', async () => {
    const id = await createConnection('guarded');
    okta.state.org = orgOf(120);
    expect(await runToEnd(http, host, token, id)).toMatchObject({ status: 'succeeded', counts: { entities: { Account: 120, Principal: 120 } } });

    // A mis-scoped token now sees 20 users: 40 entities of the users track where there were 240.
    okta.state.org = orgOf(20);
    const held = await runToEnd(http, host, token, id);
    expect(held.status).toBe('partial');
    expect(held.errors).toEqual([
      {
        category: 'safety',
        message: 'The users track found 40 entities where the last complete read found 240; its 200 removals were not applied.',
        action: expect.stringMatching(/^If 200 entities really left the users track, start a run with \{"confirm_removals": true\}/),
      },
    ]);
    expect(held.changes).toMatchObject({ entities_removed: 0, relationships_removed: 0 });
    expect(await accountsOf(id)).toEqual({ Account: 120, Principal: 120 });
    expect((await http.request('GET', `/v1/connections/${id}`, { token })).body).toMatchObject({ status: 'degraded' });

    // The next ordinary run compares with the same last complete read: still held.
    const again = await runToEnd(http, host, token, id);
    expect(again).toMatchObject({ status: 'partial', confirm_removals: false, errors: [expect.objectContaining({ category: 'safety' })] });
    expect(await accountsOf(id)).toEqual({ Account: 120, Principal: 120 });

    // Bad bodies are refused and start nothing.
    const before = (await runsOf(id)).length;
    for (const body of [{ confirm_removals: 'yes' }, { confirm_removals: true, extra: 1 }, { confirm: true }]) {
      const res = await http.request('POST', `/v1/connections/${id}/runs`, { token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation_failed' });
    }
    expect(await runsOf(id)).toHaveLength(before);

    // The admin confirms: the drop is applied.
    const started = await http.request('POST', `/v1/connections/${id}/runs`, { token, body: { confirm_removals: true } });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(started.body).toMatchObject({ status: 'queued', confirm_removals: true });
    await host.runQueue.idle();
    const confirmed = await readRun(http, token, id, (started.body as RunBody).run_id);
    expect(confirmed).toMatchObject({ status: 'succeeded', errors: [], confirm_removals: true, changes: { entities_removed: 200, relationships_removed: 100 } });
    expect(await accountsOf(id)).toEqual({ Account: 20, Principal: 20 });
    const audit = await listAll<{ action: string; payload: Record<string, unknown> }>(http, token, `/v1/audit-events?action=connection_run_started&target_id=${id}`, 'audit_events');
    expect(audit.map((e) => e.payload.confirm_removals ?? false)).toEqual([true, false, false, false]); // newest first

    // From now on 40 is the reference: a run that sees the same is an ordinary one.
    expect(await runToEnd(http, host, token, id)).toMatchObject({ status: 'succeeded', errors: [], confirm_removals: false });
  }, 120_000);

  it('sweeps ordinary churn, and a large share of a small track, as always', async () => {
    const id = await createConnection('churn');
    okta.state.org = orgOf(120);
    expect((await runToEnd(http, host, token, id)).status).toBe('succeeded');
    // Three users leave and two join.
    okta.state.org = buildOrg({ users: [...Array.from({ length: 117 }, (_, i) => oktaUser(i + 4)), oktaUser(500), oktaUser(501)], groups: [], members: {}, apps: [], appGroups: {} });
    const churn = await runToEnd(http, host, token, id);
    expect(churn).toMatchObject({ status: 'succeeded', errors: [], changes: { entities_added: 4, entities_removed: 6 } });
    expect(await accountsOf(id)).toEqual({ Account: 119, Principal: 119 });

    // 60 entities falling to 20 is more than half, but fewer than 50 leave: swept.
    const small = await createConnection('small');
    okta.state.org = orgOf(30);
    expect((await runToEnd(http, host, token, small)).status).toBe('succeeded');
    okta.state.org = orgOf(10);
    expect(await runToEnd(http, host, token, small)).toMatchObject({ status: 'succeeded', errors: [], changes: { entities_removed: 40 } });
    expect(await accountsOf(small)).toEqual({ Account: 10, Principal: 10 });
  }, 120_000);
});
