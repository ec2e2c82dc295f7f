/**
 * Discovery runs of the Okta connector end to end: HTTP against the local host, the run carried
 * step by step by the local queue (two pages per step, so every run is many checkpointed
 * steps), against a local Okta org that pages, rate-limits and refuses like Okta.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findIntegration } from '../../shared/connectors/catalog';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { buildOrg, oktaApp, oktaGroup, oktaToken, oktaUser, startFakeOkta, type FakeOkta, type FakeOktaOrg } from '../../infra/local/stand-ins/okta';
import { countByKind, listAll, runToEnd, type ChangeBody, type EntityBody, type RelationshipBody } from '../support/runs';
import { startTestHost, type TestHost } from '../support/test-host';
import { createConnection as createConnectionOver } from '../support/connections';

let okta: FakeOkta;
let host: TestHost;
let http: HttpClient;
let token: string;
const clock = new MovableClock();

const [u1, u2, u3, u4, u5] = [
  oktaUser(1, { login: 'alice@example.test', email: 'Alice@Example.test' }),
  oktaUser(2, { login: 'alice.admin@example.test', email: 'alice@example.test' }), // the same person: one Principal
  oktaUser(3, { login: 'bob@example.test' }),
  oktaUser(4, { login: 'carol@example.test' }),
  oktaUser(5, { login: 'dave@example.test', status: 'SUSPENDED' }),
];
const [g1, g2, g3, g4] = [oktaGroup(1, 'eng-core'), oktaGroup(2, 'eng-web'), oktaGroup(3, 'sales'), oktaGroup(4, 'Everyone')];
const [a1, a2] = [oktaApp(1, 'Jira'), oktaApp(2, 'Salesforce')];

function baseOrg(): FakeOktaOrg {
  return buildOrg({
    users: [u1, u2, u3, u4, u5],
    groups: [g1, g2, g3, g4],
    members: { [g1.id]: [u1.id, u3.id], [g2.id]: [u3.id, u4.id, u5.id], [g3.id]: [u4.id], [g4.id]: [u1.id, u2.id, u3.id, u4.id, u5.id] },
    apps: [a1, a2],
    appGroups: { [a1.id]: [g1.id, g2.id], [a2.id]: [g3.id] },
  });
}

const FULL_COUNTS = {
  entities: { Account: 5, Principal: 4, Entitlement: 4, Resource: 2 },
  relationships: { principal_represents_account: 5, account_assigned_entitlement: 11, entitlement_grants_resource: 3 },
};

beforeAll(async () => {
  okta = await startFakeOkta();
  host = await startTestHost({ clock, env: { TESSERA_CONNECTOR_ENDPOINTS: JSON.stringify({ okta: okta.url }), TESSERA_RUN_PAGES_PER_STEP: '2' } });
  http = api(host.url);
  const tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  token = (await login(http, clock, tenant.admin.email)).accessToken;
});
afterAll(async () => {
  await host?.close();
  await okta?.close();
});
beforeEach(() => {
  okta.state.org = baseOrg();
  okta.state.maxPage = 2;
  okta.state.scopes = new Set(['okta.users.read', 'okta.groups.read', 'okta.apps.read', 'okta.roles.read']);
  okta.state.burst429 = 0;
  okta.state.tokenUser = { user: oktaUser(9999, { login: 'tessera-discovery@example.test' }), roles: ['READ_ONLY_ADMIN'] };
  okta.state.rateLimits = { windowMs: 60_000, perBucket: {} };
  okta.calls.length = 0;
});

const createConnection = (name: string, configuration: Record<string, unknown> = { org_url: 'https://tessera-test.okta.com', api_token: oktaToken }, scope: Record<string, unknown> = {}) =>
  createConnectionOver(http, token, { integration_id: 'int_okta_discovery', name, scope, configuration });

const inventoryOf = async (id: string) => ({
  entities: await listAll<EntityBody>(http, token, `/v1/connections/${id}/entities`, 'entities', 7),
  relationships: await listAll<RelationshipBody>(http, token, `/v1/connections/${id}/relationships`, 'relationships', 7),
});

describe('a complete Okta run', () => {
  it('discovers every entity and relationship of the org, follows every page, and makes the connection healthy', async () => {
    const id = await createConnection('okta complete');
    const run = await runToEnd(http, host, token, id);
    expect(run).toMatchObject({ status: 'succeeded', trigger: 'manual', errors: [], counts: FULL_COUNTS });
    expect(run.stats.steps).toBeGreaterThan(5); // two pages per step: many checkpoints
    expect(run.changes).toEqual({ entities_added: 15, entities_removed: 0, entities_changed: 0, relationships_added: 19, relationships_removed: 0 });
    // The catalog says what the connector emits, and it emits exactly that.
    const integration = findIntegration('int_okta_discovery')!;
    expect(Object.keys(run.counts.entities).sort()).toEqual([...integration.emits_entities].sort());
    expect(Object.keys(run.counts.relationships).sort()).toEqual([...integration.emits_relationships].sort());

    const { entities, relationships } = await inventoryOf(id);
    expect(countByKind(entities)).toEqual(FULL_COUNTS.entities);
    expect(countByKind(relationships)).toEqual(FULL_COUNTS.relationships);
    const ids = new Set(entities.map((e) => e.entity_id));
    expect(ids.size).toBe(15);
    for (const r of relationships) {
      expect(ids.has(r.from_entity_id), `${r.kind} from ${r.from_source_id}`).toBe(true);
      expect(ids.has(r.to_entity_id), `${r.kind} to ${r.to_source_id}`).toBe(true);
    }
    // The contract's mapping: one Principal per email (case-insensitive) for both of Alice's accounts.
    const alice = entities.find((e) => e.kind === 'Principal' && e.source_id === 'alice@example.test')!;
    expect(relationships.filter((r) => r.kind === 'principal_represents_account' && r.from_entity_id === alice.entity_id).map((r) => r.to_source_id).sort()).toEqual([u1.id, u2.id]);
    expect(entities.find((e) => e.source_id === u5.id)).toMatchObject({ kind: 'Account', display_name: 'dave@example.test', attributes: { status: 'SUSPENDED' } });

    // Every list was paged to its end through Okta's next links (pages of 2 here).
    const usersCalls = okta.calls.filter((c) => c.path === '/api/v1/users');
    expect(usersCalls.map((c) => c.query.get('after'))).toEqual([null, u2.id, u4.id]);
    expect(okta.calls.filter((c) => c.path === `/api/v1/groups/${g4.id}/users`)).toHaveLength(3);
    expect(okta.calls.every((c) => c.authorization === `SSWS ${oktaToken}`)).toBe(true);

    const connection = (await http.request('GET', `/v1/connections/${id}`, { token })).body as Record<string, unknown>;
    expect(connection).toMatchObject({ status: 'healthy', last_run_at: run.finished_at });

    const changes = await listAll<ChangeBody>(http, token, `/v1/connections/${id}/runs/${run.run_id}/changes`, 'changes', 4);
    expect(changes.filter((c) => c.change === 'added')).toHaveLength(34);
    expect(changes.find((c) => c.kind === 'Resource' && c.source_id === a1.id)).toMatchObject({ change: 'added' });
  });

  it('lists relationships touching one entity, in both directions', async () => {
    const id = await createConnection('okta by entity');
    await runToEnd(http, host, token, id);
    const { entities } = await inventoryOf(id);
    const bob = entities.find((e) => e.source_id === u3.id)!;
    const bobs = await listAll<RelationshipBody>(http, token, `/v1/connections/${id}/relationships?entity_id=${bob.entity_id}`, 'relationships', 2);
    expect(bobs.map((r) => `${r.kind}:${r.from_source_id}>${r.to_source_id}`).sort()).toEqual(
      [`account_assigned_entitlement:${u3.id}>${g1.id}`, `account_assigned_entitlement:${u3.id}>${g2.id}`, `account_assigned_entitlement:${u3.id}>${g4.id}`, `principal_represents_account:bob@example.test>${u3.id}`].sort(),
    );
    const jira = entities.find((e) => e.source_id === a1.id)!;
    const grants = await listAll<RelationshipBody>(http, token, `/v1/connections/${id}/relationships?kind=entitlement_grants_resource&entity_id=${jira.entity_id}`, 'relationships');
    expect(grants.map((r) => r.from_source_id).sort()).toEqual([g1.id, g2.id]);
    const accounts = await listAll<EntityBody>(http, token, `/v1/connections/${id}/entities?kind=Account`, 'entities', 2);
    expect(accounts.map((a) => a.source_id).sort()).toEqual([u1.id, u2.id, u3.id, u4.id, u5.id]);
  });
});

describe('a second run', () => {
  it('reports exactly what changed in the org, keeps entity ids stable, and rewrites nothing unchanged', async () => {
    const id = await createConnection('okta changes');
    const first = await runToEnd(http, host, token, id);
    const before = await inventoryOf(id);

    const unchanged = await runToEnd(http, host, token, id);
    expect(unchanged).toMatchObject({ status: 'succeeded', counts: FULL_COUNTS, changes: { entities_added: 0, entities_removed: 0, entities_changed: 0, relationships_added: 0, relationships_removed: 0 } });
    expect(unchanged.stats.items_written).toBe(0);
    expect(first.stats.items_written).toBeGreaterThan(0);

    // Carol leaves, Erin joins eng-web, Bob is renamed, Dave leaves eng-web, Salesforce is retired.
    const u6 = oktaUser(6, { login: 'erin@example.test' });
    const renamed = oktaUser(3, { login: 'bob@example.test', lastName: 'Builder' });
    okta.state.org = buildOrg({
      users: [u1, u2, renamed, u5, u6],
      groups: [g1, g2, g3, g4],
      members: { [g1.id]: [u1.id, u3.id], [g2.id]: [u3.id, u6.id], [g3.id]: [], [g4.id]: [u1.id, u2.id, u3.id, u5.id, u6.id] },
      apps: [a1],
      appGroups: { [a1.id]: [g1.id, g2.id] },
    });
    const second = await runToEnd(http, host, token, id);
    expect(second.status).toBe('succeeded');
    const changes = await listAll<ChangeBody>(http, token, `/v1/connections/${id}/runs/${second.run_id}/changes`, 'changes', 3);
    const line = (c: ChangeBody) => `${c.change} ${c.kind} ${c.source_id}${c.to_source_id ? ` > ${c.to_source_id}` : ''}`;
    expect(changes.map(line).sort()).toEqual(
      [
        `added Account ${u6.id}`,
        'added Principal erin@example.test',
        `added principal_represents_account erin@example.test > ${u6.id}`,
        `added account_assigned_entitlement ${u6.id} > ${g2.id}`,
        `added account_assigned_entitlement ${u6.id} > ${g4.id}`,
        `changed Account ${u3.id}`,
        `removed Account ${u4.id}`,
        'removed Principal carol@example.test',
        `removed principal_represents_account carol@example.test > ${u4.id}`,
        `removed account_assigned_entitlement ${u4.id} > ${g2.id}`,
        `removed account_assigned_entitlement ${u4.id} > ${g3.id}`,
        `removed account_assigned_entitlement ${u4.id} > ${g4.id}`,
        `removed account_assigned_entitlement ${u5.id} > ${g2.id}`,
        `removed Resource ${a2.id}`,
        `removed entitlement_grants_resource ${g3.id} > ${a2.id}`,
      ].sort(),
    );
    expect(second.changes).toEqual({ entities_added: 2, entities_removed: 3, entities_changed: 1, relationships_added: 3, relationships_removed: 6 });
    // What changed in Bob, before and after; no other change says so.
    expect(changes.find((c) => c.change === 'changed')!.changed_attributes).toEqual([{ attribute: 'last_name', before: '3', after: 'Builder' }]);
    expect(changes.filter((c) => c.changed_attributes !== undefined)).toHaveLength(1);

    const after = await inventoryOf(id);
    const expected = {
      entities: { Account: 5, Principal: 4, Entitlement: 4, Resource: 1 },
      relationships: { principal_represents_account: 5, account_assigned_entitlement: 9, entitlement_grants_resource: 2 },
    };
    expect(second.counts).toEqual(expected);
    expect({ entities: countByKind(after.entities), relationships: countByKind(after.relationships) }).toEqual(expected);
    expect(after.entities.some((e) => [u4.id, a2.id, 'carol@example.test'].includes(e.source_id))).toBe(false);
    const idOf = (inventory: typeof before, sourceId: string) => inventory.entities.find((e) => e.source_id === sourceId)?.entity_id;
    for (const kept of [u1.id, u3.id, g1.id, a1.id, 'alice@example.test']) expect(idOf(after, kept)).toBe(idOf(before, kept));
    const bob = after.entities.find((e) => e.source_id === u3.id)!;
    expect(bob.attributes).toMatchObject({ last_name: 'Builder' });
    expect(bob.first_seen_at).toBe(before.entities.find((e) => e.source_id === u3.id)!.first_seen_at);
    expect(Date.parse(bob.last_seen_at)).toBeGreaterThan(Date.parse(bob.first_seen_at));
  });
});

describe('polite and refused reads', () => {
  it('honours 429s and the rate-limit headers: nothing is sent before the advertised reset', async () => {
    const id = await createConnection('okta throttled');
    okta.state.burst429 = 2;
    okta.state.rateLimits = { windowMs: 1_000, perBucket: { groups: 3 } };
    const run = await runToEnd(http, host, token, id);
    expect(run).toMatchObject({ status: 'succeeded', counts: FULL_COUNTS });
    expect(run.stats.throttled_ms).toBeGreaterThan(0);
    // The two 429s are the burst; the window limit itself was never overrun.
    expect(okta.calls.filter((c) => c.status === 429)).toHaveLength(2);
    // After an answer that said "0 left until R" (or a 429 until R), that bucket's next request came at R or later.
    for (const [i, call] of okta.calls.entries()) {
      if (call.reset === undefined || (call.status !== 429 && call.remaining !== 0)) continue;
      const next = okta.calls.slice(i + 1).find((c) => c.bucket === call.bucket);
      if (next) expect(next.at, `${call.path} then ${next.path}`).toBeGreaterThanOrEqual(call.reset * 1000);
    }
    const exhausted = okta.calls.filter((c) => c.bucket === 'groups' && c.remaining === 0);
    expect(exhausted.length).toBeGreaterThan(1); // the groups bucket ran dry several times and the run waited each time
  });

  it('a refused scope makes the run partial with the scope to grant, keeps what was read before, and degrades the connection', async () => {
    const id = await createConnection('okta partial');
    await runToEnd(http, host, token, id);
    okta.state.scopes.delete('okta.apps.read');
    okta.state.org = buildOrg({ ...plain(baseOrg()), apps: [] }); // would look like removals if apps were swept
    const run = await runToEnd(http, host, token, id);
    expect(run.status).toBe('partial');
    expect(run.errors).toEqual([expect.objectContaining({ category: 'permissions', message: 'The API token may not use okta.apps.read.', action: expect.stringContaining('READ_ONLY_ADMIN') })]);
    expect(run.changes).toMatchObject({ entities_removed: 0, relationships_removed: 0 });
    const { entities, relationships } = await inventoryOf(id);
    expect(countByKind(entities)).toEqual(FULL_COUNTS.entities);
    expect(countByKind(relationships)).toEqual(FULL_COUNTS.relationships);
    expect((await http.request('GET', `/v1/connections/${id}`, { token })).body).toMatchObject({ status: 'degraded', last_run_at: run.finished_at });
  });

  it('an empty user list for a token whose user holds no admin role refuses the users track: partial, users kept, the test fails with the role to assign', async () => {
    const id = await createConnection('okta no admin role');
    await runToEnd(http, host, token, id);
    okta.state.tokenUser.roles = []; // the admin role was taken from the token's creator: Okta answers 200 []
    const run = await runToEnd(http, host, token, id);
    expect(run.status).toBe('partial');
    const remediation = {
      category: 'permissions',
      message: 'The API token acts for tessera-discovery@example.test, who holds no admin role, so Okta answers its user list empty (HTTP 200 with no users).',
      action: expect.stringContaining('Assign the Read-Only Administrator role (READ_ONLY_ADMIN) to tessera-discovery@example.test'),
    };
    expect(run.errors).toEqual([remediation]);
    // The answer was read, and it was empty: only the refusal keeps the users from being swept.
    expect(okta.calls.filter((c) => c.path === '/api/v1/users').at(-1)).toMatchObject({ status: 200 });
    expect(run.changes).toMatchObject({ entities_removed: 0, relationships_removed: 0 });
    const { entities, relationships } = await inventoryOf(id);
    expect(countByKind(entities)).toEqual(FULL_COUNTS.entities);
    expect(countByKind(relationships)).toEqual(FULL_COUNTS.relationships);
    expect((await http.request('GET', `/v1/connections/${id}`, { token })).body).toMatchObject({ status: 'degraded' });

    const tested = await http.request('POST', `/v1/connections/${id}/test`, { token });
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({ status: 'failure', remediation: [remediation] });

    // The same empty list from a token whose user is an admin is an org without users: believed.
    okta.state.tokenUser.roles = ['READ_ONLY_ADMIN'];
    expect((await http.request('POST', `/v1/connections/${id}/test`, { token })).body).toMatchObject({ status: 'success', remediation: [] });
  });

  it('wrong credentials fail the run and keep the previous inventory', async () => {
    const id = await createConnection('okta credentials');
    await runToEnd(http, host, token, id);
    const patched = await http.request('PATCH', `/v1/connections/${id}`, { token, body: { configuration: { org_url: 'https://tessera-test.okta.com', api_token: '00SomeOtherTokenThatOktaDoesNotKnow_999' } } });
    expect(patched.body).toMatchObject({ status: 'unknown' }); // new credentials: health unknown until a test or run
    const run = await runToEnd(http, host, token, id);
    expect(run.status).toBe('failed');
    expect(run.errors).toEqual([expect.objectContaining({ category: 'credentials', message: expect.stringContaining('E0000011') })]);
    const { entities, relationships } = await inventoryOf(id);
    expect(countByKind(entities)).toEqual(FULL_COUNTS.entities);
    expect(countByKind(relationships)).toEqual(FULL_COUNTS.relationships);
    expect((await http.request('GET', `/v1/connections/${id}`, { token })).body).toMatchObject({ status: 'degraded' });
    expect(JSON.stringify(run)).not.toContain('00SomeOtherTokenThatOktaDoesNotKnow_999');
  });

  it('applies the group filter to groups and to the groups apps are assigned to', async () => {
    const id = await createConnection('okta filtered', undefined, { group_filter: 'ENG-' });
    const run = await runToEnd(http, host, token, id);
    expect(run.status).toBe('succeeded');
    const { entities, relationships } = await inventoryOf(id);
    expect(entities.filter((e) => e.kind === 'Entitlement').map((e) => e.display_name).sort()).toEqual(['eng-core', 'eng-web']);
    expect(relationships.filter((r) => r.kind === 'entitlement_grants_resource').map((r) => r.from_source_id).sort()).toEqual([g1.id, g2.id]);
    expect(okta.calls.find((c) => c.path === '/api/v1/groups')?.query.get('q')).toBe('ENG-');
  });
});

function plain(org: FakeOktaOrg) {
  return { users: org.users, groups: org.groups, members: Object.fromEntries(org.members), apps: org.apps, appGroups: Object.fromEntries(org.appGroups) };
}
