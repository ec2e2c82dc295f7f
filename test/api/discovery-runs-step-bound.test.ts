/**
 * A step's bound on what it sees (`TESSERA_RUN_MAX_STEP_OBSERVATIONS`, 10,000 by default: what
 * bounds the run worker's memory) holds in the sweep's linking stage too, where a first run
 * links most of its relationships: the stage stops when a step has seen the bound, checkpoints,
 * and the next step goes on from the held part it reached, until every held relationship is
 * linked once. Here the bound is 100 and a first run holds back 360 group memberships.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../shared/store/keys';
import type { RunProgress } from '../../shared/store/records';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { buildOrg, oktaGroup, oktaToken, oktaUser, startFakeOkta, type FakeOkta } from '../../infra/local/stand-ins/okta';
import { countByKind, listAll, runToEnd, type RelationshipBody } from '../support/runs';
import { startTestHost, type TestHost } from '../support/test-host';
import { createConnection, oktaConnectionBody } from '../support/connections';

const BOUND = 100;
const users = Array.from({ length: 60 }, (_, i) => oktaUser(i + 1));
const groups = Array.from({ length: 6 }, (_, i) => oktaGroup(i + 1, `team-${i + 1}`));

let okta: FakeOkta;
let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
const home = { tenantId: '', workspaceId: '', token: '' };

beforeAll(async () => {
  okta = await startFakeOkta({
    org: buildOrg({ users, groups, members: Object.fromEntries(groups.map((g) => [g.id, users.map((u) => u.id)])), apps: [], appGroups: {} }),
  });
  host = await startTestHost({
    clock,
    // One page a track a step: the members of a group are read in a later step than the users, so they are held for linking.
    env: { TESSERA_CONNECTOR_ENDPOINTS: JSON.stringify({ okta: okta.url }), TESSERA_RUN_PAGES_PER_STEP: '1', TESSERA_RUN_MAX_STEP_OBSERVATIONS: String(BOUND) },
  });
  http = api(host.url);
  const tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  Object.assign(home, { tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, token: (await login(http, clock, tenant.admin.email)).accessToken });
});
afterAll(async () => {
  await host?.close();
  await okta?.close();
});

/** The checkpoints of a run's steps, in order: what each step left for the next. */
async function stepHeaders(connectionId: string, runId: string): Promise<{ next: RunProgress }[]> {
  const { PK, SK } = keys.runStepHeader(home.tenantId, home.workspaceId, connectionId, runId, 0);
  const page = await host.deps.table.queryRaw({ PK, SKPrefix: SK.slice(0, SK.lastIndexOf('#') + 1) });
  expect(page.lastKey).toBeUndefined();
  return page.items as unknown as { next: RunProgress }[];
}

describe('the linking stage of a first run', () => {
  it('stops at the bound, checkpoints, and the next step goes on: every membership linked once, the run complete', async () => {
    const connectionId = await createConnection(http, home.token, oktaConnectionBody('Acme Okta', oktaToken));
    const run = await runToEnd(http, host, home.token, connectionId);
    expect(run.status).toBe('succeeded');
    expect(run.stats.dangling_relationships).toBe(0);

    // Steps that ended with linking begun and not done: the stage was cut by the bound at least twice.
    const headers = await stepHeaders(connectionId, run.run_id);
    expect(headers).toHaveLength(run.stats.steps);
    const cut = headers.filter((h) => h.next.phase === 'sweep' && typeof h.next.linking === 'object');
    expect(cut.length).toBeGreaterThanOrEqual(2);

    // Nothing lost or doubled across those steps.
    const memberships = await listAll<RelationshipBody>(http, home.token, `/v1/connections/${connectionId}/relationships?kind=account_assigned_entitlement`, 'relationships');
    expect(memberships).toHaveLength(users.length * groups.length);
    expect(new Set(memberships.map((r) => `${r.from_entity_id} ${r.to_entity_id}`)).size).toBe(users.length * groups.length);
    expect(run.counts.relationships).toMatchObject({ account_assigned_entitlement: users.length * groups.length });
    expect(countByKind(memberships)).toEqual({ account_assigned_entitlement: 360 });
  });
});
