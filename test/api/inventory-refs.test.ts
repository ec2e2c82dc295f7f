/**
 * Entity refs in the inventory answers (API.md "Discovery runs and inventory"): every
 * relationship and every change names what it points at, in each of two connections, and goes
 * on naming an entity after a run removed it. Another workspace and another tenant find
 * nothing; a viewer reads all.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, login } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { buildOrg, oktaApp, oktaGroup, oktaToken, oktaUser, startFakeOkta, type FakeOkta } from '../../infra/local/stand-ins/okta';
import { listAll, runToEnd, type EntityBody, type RunBody } from '../support/runs';
import { startTestHost, type TestHost } from '../support/test-host';
import { createConnection as createConnectionOver, oktaConnectionBody } from '../support/connections';
import { keys } from '../../shared/store/keys';

interface Ref {
  entity_id: string;
  kind: string;
  source_id: string;
  display_name: string;
}
interface RelationshipWithRefs {
  kind: string;
  from_entity_id: string;
  to_entity_id: string;
  from: Ref;
  to: Ref;
}
interface ChangeWithRefs {
  change: string;
  kind: string;
  entity_id: string;
  source_id: string;
  display_name: string;
  from?: Ref;
  to?: Ref;
}

let okta: FakeOkta;
let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
const home = { tenantId: '', workspaceId: '' };
const tokens = { admin: '', viewer: '', otherWorkspace: '', otherTenant: '' };
const connections = { first: '', second: '', otherWorkspace: '' };
let firstRun: RunBody;
let secondRun: RunBody;

const alice = oktaUser(1, { login: 'alice@acme.test', email: 'alice@example.com' });
const bob = oktaUser(2, { login: 'bob@acme.test', email: 'bob@example.com' });
const carol = oktaUser(3, { login: 'carol@acme.test', email: 'carol@example.com' });
const payrollUsers = oktaGroup(1, 'Payroll users');
const allStaff = oktaGroup(2, 'All staff');
const payroll = oktaApp(1, 'Payroll');
// More than the entity detail shows each way: 105 staff (and Alice) in All staff, Alice in 101 more groups.
const staff = Array.from({ length: 105 }, (_, i) => oktaUser(10 + i));
const projectGroups = Array.from({ length: 101 }, (_, i) => oktaGroup(10 + i, `Project ${i}`));

const acmeOrg = (users: ReturnType<typeof oktaUser>[], members: Record<string, string[]>, groups = [payrollUsers, allStaff, ...projectGroups]) =>
  buildOrg({
    users: [...users, ...staff],
    groups,
    members: { ...members, [allStaff.id]: [alice.id, ...staff.map((u) => u.id)], ...Object.fromEntries(projectGroups.map((g) => [g.id, [alice.id]])) },
    apps: [payroll],
    appGroups: { [payroll.id]: [payrollUsers.id] },
  });

const createConnection = (token: string, name: string) => createConnectionOver(http, token, oktaConnectionBody(name, oktaToken, 'https://acme.okta.com'));

const entities = (connectionId: string, token = tokens.admin) => listAll<EntityBody>(http, token, `/v1/connections/${connectionId}/entities`, 'entities');
const relationships = (connectionId: string, query = '', token = tokens.admin) =>
  listAll<RelationshipWithRefs>(http, token, `/v1/connections/${connectionId}/relationships${query}`, 'relationships');
const changes = (connectionId: string, runId: string, token = tokens.admin) => listAll<ChangeWithRefs>(http, token, `/v1/connections/${connectionId}/runs/${runId}/changes`, 'changes');
const refOf = (e: EntityBody): Ref => ({ entity_id: e.entity_id, kind: e.kind, source_id: e.source_id, display_name: e.display_name });

beforeAll(async () => {
  okta = await startFakeOkta({ org: acmeOrg([alice, bob, carol], { [payrollUsers.id]: [alice.id, bob.id, carol.id] }) });
  host = await startTestHost({ clock, env: { TESSERA_CONNECTOR_ENDPOINTS: JSON.stringify({ okta: okta.url }) } });
  http = api(host.url);
  const tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  Object.assign(home, { tenantId: tenant.tenantId, workspaceId: tenant.workspaceId });
  tokens.admin = (await login(http, clock, tenant.admin.email)).accessToken;
  await createUser(http, tokens.admin, { email: `viewer@${tenant.domain}`, role: 'viewer' });
  tokens.viewer = (await login(http, clock, `viewer@${tenant.domain}`)).accessToken;
  const other = await http.request('POST', '/v1/workspaces', { token: tokens.admin, body: { name: 'globex' } });
  expect(other.status).toBe(201);
  await createUser(http, tokens.admin, { email: `other@${tenant.domain}`, role: 'admin', workspace_id: (other.body as { id: string }).id });
  tokens.otherWorkspace = (await login(http, clock, `other@${tenant.domain}`)).accessToken;
  const otherTenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  tokens.otherTenant = (await login(http, clock, otherTenant.admin.email)).accessToken;

  connections.first = await createConnection(tokens.admin, 'okta');
  connections.second = await createConnection(tokens.admin, 'okta again');
  connections.otherWorkspace = await createConnection(tokens.otherWorkspace, 'okta elsewhere');
  firstRun = await runToEnd(http, host, tokens.admin, connections.first);
  expect(firstRun.status).toBe('succeeded');
  expect((await runToEnd(http, host, tokens.admin, connections.second)).status).toBe('succeeded');
  expect((await runToEnd(http, host, tokens.otherWorkspace, connections.otherWorkspace)).status).toBe('succeeded');
  // Carol leaves the org, Bob leaves the group: the first connection's second run removes them.
  okta.state.org = acmeOrg([alice, bob], { [payrollUsers.id]: [alice.id] });
  clock.advance(60);
  secondRun = await runToEnd(http, host, tokens.admin, connections.first);
  expect(secondRun.status).toBe('succeeded');
}, 120_000);
afterAll(async () => {
  await host?.close();
  await okta?.close();
});

describe('relationships name both ends', () => {
  it('in each connection, every relationship carries its ends as refs of that connection\'s entities', async () => {
    for (const connectionId of [connections.first, connections.second]) {
      const byId = new Map((await entities(connectionId)).map((e) => [e.entity_id, refOf(e)]));
      const listed = await relationships(connectionId);
      expect(listed.length).toBeGreaterThan(0);
      for (const r of listed) {
        expect(r.from, JSON.stringify(r)).toEqual(byId.get(r.from_entity_id));
        expect(r.to, JSON.stringify(r)).toEqual(byId.get(r.to_entity_id));
      }
      // The names are the provider's, not ids: Alice's account is in Payroll users, which grants Payroll.
      expect(listed.map((r) => `${r.kind} ${r.from.display_name} -> ${r.to.display_name}`)).toEqual(
        expect.arrayContaining([
          'principal_represents_account alice@example.com -> alice@acme.test',
          'account_assigned_entitlement alice@acme.test -> Payroll users',
          'entitlement_grants_resource Payroll users -> Payroll',
        ]),
      );
    }
    // The same provider object is a different entity in each connection.
    const [first, second] = await Promise.all([relationships(connections.first, '?kind=entitlement_grants_resource'), relationships(connections.second, '?kind=entitlement_grants_resource')]);
    expect(first[0]!.from.entity_id).not.toBe(second[0]!.from.entity_id);
  });

  it('?kind= keeps one kind, with or without entity_id', async () => {
    const grants = await relationships(connections.second, '?kind=entitlement_grants_resource');
    expect(grants.map((r) => [r.kind, r.from.display_name, r.to.display_name])).toEqual([['entitlement_grants_resource', 'Payroll users', 'Payroll']]);
    const group = grants[0]!.from.entity_id;
    const members = await relationships(connections.second, `?kind=account_assigned_entitlement&entity_id=${group}`);
    expect(members.map((r) => r.from.display_name).sort()).toEqual(['alice@acme.test', 'bob@acme.test', 'carol@acme.test']);
    expect(members.map((r) => r.to.display_name)).toEqual(['Payroll users', 'Payroll users', 'Payroll users']);
    expect(new Set(members.map((r) => r.kind))).toEqual(new Set(['account_assigned_entitlement']));
  });

  it('a viewer reads them; another workspace and another tenant find nothing', async () => {
    expect((await relationships(connections.first, '', tokens.viewer)).length).toBeGreaterThan(0);
    for (const token of [tokens.otherWorkspace, tokens.otherTenant]) {
      expect((await http.request('GET', `/v1/connections/${connections.first}/relationships`, { token })).status).toBe(404);
      expect((await http.request('GET', `/v1/connections/${connections.first}/runs/${firstRun.run_id}/changes`, { token })).status).toBe(404);
    }
  });
});

describe('changes name what changed', () => {
  it('a first run\'s changes name every entity, and both ends of every relationship', async () => {
    const listed = await changes(connections.first, firstRun.run_id);
    const entityChanges = listed.filter((c) => c.from === undefined);
    expect(entityChanges.map((c) => c.display_name)).toEqual(expect.arrayContaining(['alice@acme.test', 'alice@example.com', 'Payroll users', 'Payroll']));
    const relationshipChanges = listed.filter((c) => c.from !== undefined);
    expect(relationshipChanges.length).toBe(firstRun.changes.relationships_added);
    expect(relationshipChanges.length).toBeGreaterThan(0);
    for (const c of relationshipChanges) {
      expect(c.to).toBeDefined();
      expect({ entity_id: c.entity_id, source_id: c.source_id, display_name: c.display_name }).toEqual({ entity_id: c.from!.entity_id, source_id: c.from!.source_id, display_name: c.from!.display_name });
    }
    expect(relationshipChanges.map((c) => `${c.from!.display_name} -> ${c.to!.display_name}`)).toContain('carol@acme.test -> Payroll users');
  });

  it('what a run removed is still named: in its own changes and in the earlier run\'s', async () => {
    const removed = (await changes(connections.first, secondRun.run_id)).filter((c) => c.change === 'removed');
    // Carol's account and Principal are gone from the inventory; their names are not.
    expect(removed.filter((c) => c.from === undefined).map((c) => `${c.kind} ${c.display_name}`).sort()).toEqual(['Account carol@acme.test', 'Principal carol@example.com']);
    expect(removed.filter((c) => c.from !== undefined).map((c) => `${c.kind} ${c.from!.display_name} -> ${c.to!.display_name}`).sort()).toEqual([
      'account_assigned_entitlement bob@acme.test -> Payroll users',
      'account_assigned_entitlement carol@acme.test -> Payroll users',
      'principal_represents_account carol@example.com -> carol@acme.test',
    ]);
    const carolAccount = removed.find((c) => c.kind === 'Account')!;
    expect(carolAccount.source_id).toBe(carol.id);
    expect((await entities(connections.first)).some((e) => e.entity_id === carolAccount.entity_id)).toBe(false);
    // The first run's addition of Carol's membership still names her.
    const added = await changes(connections.first, firstRun.run_id);
    expect(added.find((c) => c.kind === 'account_assigned_entitlement' && c.entity_id === carolAccount.entity_id)).toMatchObject({ display_name: 'carol@acme.test', from: { display_name: 'carol@acme.test', kind: 'Account' }, to: { display_name: 'Payroll users' } });
    // A viewer reads the same.
    expect((await changes(connections.first, secondRun.run_id, tokens.viewer)).filter((c) => c.change === 'removed')).toEqual(removed);
  });
});

interface Neighbour {
  kind: string;
  entity: Ref;
}
interface EntityDetail extends EntityBody {
  relationships: { out: Neighbour[]; in: Neighbour[]; out_total: number; in_total: number };
}

const entityBySource = async (connectionId: string, sourceId: string) => (await entities(connectionId)).find((e) => e.source_id === sourceId)!;
const detail = (connectionId: string, entityId: string, token = tokens.admin) => http.request('GET', `/v1/connections/${connectionId}/entities/${entityId}`, { token });

describe('the entity detail', () => {
  it('is the entity, with at most 100 relationships each way, the other end named, and the totals', async () => {
    const account = await entityBySource(connections.second, alice.id);
    const res = await detail(connections.second, account.entity_id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const body = res.body as EntityDetail;
    expect(body).toMatchObject({ ...account, last_seen_at: expect.any(String) });
    // Payroll users, All staff and 101 project groups: 103, of which 100 are shown.
    expect(body.relationships.out_total).toBe(103);
    expect(body.relationships.out).toHaveLength(100);
    const groupNames = new Set(['Payroll users', 'All staff', ...projectGroups.map((g) => g.profile.name)]);
    for (const n of body.relationships.out) {
      expect(n.kind).toBe('account_assigned_entitlement');
      expect(n.entity.kind).toBe('Entitlement');
      expect(groupNames.has(n.entity.display_name), n.entity.display_name).toBe(true);
    }
    expect(new Set(body.relationships.out.map((n) => n.entity.entity_id)).size).toBe(100);
    expect(body.relationships.in).toEqual([{ kind: 'principal_represents_account', entity: refOf(await entityBySource(connections.second, 'alice@example.com')) }]);
    expect(body.relationships.in_total).toBe(1);

    const everyone = (await detail(connections.second, (await entityBySource(connections.second, allStaff.id)).entity_id)).body as EntityDetail;
    expect(everyone.relationships).toMatchObject({ out: [], out_total: 0, in_total: 106 });
    expect(everyone.relationships.in).toHaveLength(100);
    expect(everyone.relationships.in.every((n) => n.kind === 'account_assigned_entitlement' && n.entity.kind === 'Account' && n.entity.display_name.includes('@'))).toBe(true);

    const group = (await detail(connections.second, (await entityBySource(connections.second, payrollUsers.id)).entity_id, tokens.viewer)).body as EntityDetail;
    expect(group.relationships.out).toEqual([{ kind: 'entitlement_grants_resource', entity: refOf(await entityBySource(connections.second, payroll.id)) }]);
    expect(group.relationships).toMatchObject({ out_total: 1, in_total: 3 });
  });

  it('is 404 for an unknown id, another connection\'s entity, another workspace and another tenant; 400 for a malformed id', async () => {
    const account = await entityBySource(connections.first, alice.id);
    expect((await detail(connections.first, account.entity_id)).status).toBe(200);
    expect((await detail(connections.second, account.entity_id)).status).toBe(404);
    expect((await detail(connections.first, 'ent_00000000000000000000000000')).status).toBe(404);
    expect((await detail(connections.first, account.entity_id, tokens.otherWorkspace)).status).toBe(404);
    expect((await detail(connections.first, account.entity_id, tokens.otherTenant)).status).toBe(404);
    // The other workspace's own connection does not open this one's entity either.
    expect((await detail(connections.otherWorkspace, account.entity_id, tokens.otherWorkspace)).status).toBe(404);
    const malformed = await detail(connections.first, 'usr_0000000000');
    expect(malformed.status).toBe(400);
    expect((malformed.body as { code: string }).code).toBe('validation_failed');
  });
});

describe('?q= on entities', () => {
  const search = (connectionId: string, query: string, token = tokens.admin) => listAll<EntityBody>(http, token, `/v1/connections/${connectionId}/entities?${query}`, 'entities');

  it('finds a case-insensitive prefix of the name, kind by kind; an entity matched by name and source id once', async () => {
    // The Principal's source id is its email, its name too: listed once.
    expect((await search(connections.second, 'q=ALICE')).map((e) => `${e.kind} ${e.display_name}`)).toEqual(['Principal alice@example.com', 'Account alice@acme.test']);
    expect((await search(connections.second, 'q=Alice%40Ex')).map((e) => `${e.kind} ${e.display_name}`)).toEqual(['Principal alice@example.com']);
    expect((await search(connections.second, 'q=ali&kind=Account')).map((e) => e.display_name)).toEqual(['alice@acme.test']);
    expect((await search(connections.second, 'q=pAyRoLl')).map((e) => `${e.kind} ${e.display_name}`)).toEqual(['Entitlement Payroll users', 'Resource Payroll']);
    expect(await search(connections.second, 'q=nobody')).toEqual([]);
    // The answer is the entity as the list shows it.
    expect(await search(connections.second, 'q=alice%40acme')).toEqual([await entityBySource(connections.second, alice.id)]);
  });

  it('finds a case-insensitive prefix of the source id', async () => {
    expect((await search(connections.second, `q=${alice.id.toUpperCase()}`)).map((e) => `${e.kind} ${e.source_id}`)).toEqual([`Account ${alice.id}`]);
    expect((await search(connections.second, `q=${payrollUsers.id}&kind=Entitlement`)).map((e) => e.display_name)).toEqual(['Payroll users']);
    // Only the removed Carol is gone from the first connection: her account is not found there, still in the second.
    expect(await search(connections.first, `q=${carol.id}`)).toEqual([]);
    expect((await search(connections.second, `q=${carol.id}`)).map((e) => e.display_name)).toEqual(['carol@acme.test']);
  });

  it('pages with a cursor, across kinds, every match once', async () => {
    const first = await http.request('GET', `/v1/connections/${connections.second}/entities?q=USER&kind=Account&limit=50`, { token: tokens.admin });
    expect(first.status).toBe(200);
    const page1 = first.body as { entities: EntityBody[]; next_cursor: string | null };
    expect(page1.entities).toHaveLength(50);
    expect(page1.next_cursor).toEqual(expect.any(String));
    const second = await http.request('GET', `/v1/connections/${connections.second}/entities?q=USER&kind=Account&limit=50&cursor=${encodeURIComponent(page1.next_cursor!)}`, { token: tokens.admin });
    const page2 = second.body as { entities: EntityBody[]; next_cursor: string | null };
    expect(page2.entities).toHaveLength(50);
    expect(page2.entities.some((e) => page1.entities.some((f) => f.entity_id === e.entity_id))).toBe(false);
    // Staff accounts (user10@… to user114@…) and their Principals, in pages of 40 that cross from one kind to the next.
    const all = await listAll<EntityBody>(http, tokens.viewer, `/v1/connections/${connections.second}/entities?q=uSeR`, 'entities', 40);
    expect(all).toHaveLength(210);
    expect(new Set(all.map((e) => e.entity_id)).size).toBe(210);
    expect(all.slice(0, 105).every((e) => e.kind === 'Principal')).toBe(true);
    expect(all.slice(105).every((e) => e.kind === 'Account')).toBe(true);
    expect(all.slice(105).map((e) => e.display_name)).toEqual(staff.map((u) => u.profile.login).sort());
  });

  it('refuses a bad q with a clear error; another workspace and another tenant find nothing', async () => {
    for (const q of ['', 'a'.repeat(201), 'a%01b']) {
      const res = await http.request('GET', `/v1/connections/${connections.second}/entities?q=${q}`, { token: tokens.admin });
      expect(res.status, q).toBe(400);
      expect((res.body as { errors: { path: string }[] }).errors[0]!.path).toBe('q');
    }
    for (const token of [tokens.otherWorkspace, tokens.otherTenant]) {
      expect((await http.request('GET', `/v1/connections/${connections.second}/entities?q=alice`, { token })).status).toBe(404);
    }
    // The other workspace's connection to the same org finds its own entities only.
    const elsewhere = await search(connections.otherWorkspace, 'q=alice', tokens.otherWorkspace);
    expect(elsewhere.map((e) => e.display_name)).toEqual(['alice@example.com', 'alice@acme.test']);
    const ours = new Set([...(await search(connections.first, 'q=alice')), ...(await search(connections.second, 'q=alice'))].map((e) => e.entity_id));
    expect(ours.size).toBe(4);
    expect(elsewhere.some((e) => ours.has(e.entity_id))).toBe(false);
  });

  it('follows a rename', async () => {
    okta.state.org = acmeOrg([alice, bob, carol], { [payrollUsers.id]: [alice.id, bob.id, carol.id] }, [oktaGroup(1, 'Salaries'), allStaff, ...projectGroups]);
    expect((await runToEnd(http, host, tokens.admin, connections.second)).status).toBe('succeeded');
    expect((await search(connections.second, 'q=sal')).map((e) => `${e.kind} ${e.display_name}`)).toEqual(['Entitlement Salaries']);
    expect((await search(connections.second, 'q=payroll')).map((e) => `${e.kind} ${e.display_name}`)).toEqual(['Resource Payroll']);
  });
});

describe('entities without q', () => {
  // Names that sort differently by case, by code point and by byte: mixed case, a digit, an
  // accent (U+00E9 sorts after z), two accounts of the same name (ties by entity id), and a group
  // without a name (the connectors fall back to ids; this stands for a provider answering "").
  const people = [
    oktaUser(201, { login: 'Zed@acme.test', email: 'zed@example.com' }),
    oktaUser(202, { login: 'adam@acme.test', email: 'Adam@example.com' }),
    oktaUser(203, { login: 'émile@acme.test', email: 'emile@example.com' }),
    oktaUser(204, { login: 'Bea@acme.test', email: 'bea@example.com' }),
    oktaUser(205, { login: 'bea@acme.test', email: 'bea2@example.com' }),
    oktaUser(206, { login: '7of9@acme.test', email: 'seven@example.com' }),
  ];
  const groups = [oktaGroup(201, 'payroll'), oktaGroup(202, 'Admins'), oktaGroup(203, ''), oktaGroup(204, 'Émigrés')];
  const orderedOrg = (users = people) =>
    buildOrg({ users, groups, members: { [groups[0]!.id]: users.map((u) => u.id) }, apps: [oktaApp(201, 'Wiki'), oktaApp(202, 'billing')], appGroups: {} });
  const byName = (a: EntityBody, b: EntityBody) => {
    const [x, y] = [a.display_name.toLowerCase(), b.display_name.toLowerCase()];
    return x < y ? -1 : x > y ? 1 : a.entity_id < b.entity_id ? -1 : 1;
  };
  const kindOrder = ['Principal', 'Account', 'Entitlement', 'Resource'];
  let connection = '';

  beforeAll(async () => {
    okta.state.org = orderedOrg();
    connection = await createConnection(tokens.admin, 'okta ordered');
    expect((await runToEnd(http, host, tokens.admin, connection)).status).toBe('succeeded');
  }, 60_000);

  it('come kind by kind, each by name (case-insensitive, ties by entity id), in pages of any size', async () => {
    const all = await entities(connection);
    expect(all).toHaveLength(6 + 6 + 4 + 2);
    const expected = kindOrder.flatMap((kind) => all.filter((e) => e.kind === kind).sort(byName));
    expect(all.map((e) => e.entity_id)).toEqual(expected.map((e) => e.entity_id));
    expect(all.filter((e) => e.kind === 'Account').map((e) => e.display_name)).toEqual([
      '7of9@acme.test', 'adam@acme.test', ...(['Bea@acme.test', 'bea@acme.test'] as const).slice().sort((a, b) => {
        const id = (name: string) => all.find((e) => e.display_name === name)!.entity_id;
        return id(a) < id(b) ? -1 : 1;
      }), 'Zed@acme.test', 'émile@acme.test',
    ]);
    expect(all.filter((e) => e.kind === 'Entitlement').map((e) => e.display_name)).toEqual(['', 'Admins', 'payroll', 'Émigrés']);
    expect(all.filter((e) => e.kind === 'Resource').map((e) => e.display_name)).toEqual(['billing', 'Wiki']);
    for (const limit of [1, 4]) {
      expect((await listAll<EntityBody>(http, tokens.viewer, `/v1/connections/${connection}/entities`, 'entities', limit)).map((e) => e.entity_id), `limit ${limit}`).toEqual(all.map((e) => e.entity_id));
    }
    // ?kind= keeps the order within the kind.
    expect((await listAll<EntityBody>(http, tokens.admin, `/v1/connections/${connection}/entities?kind=Entitlement`, 'entities', 2)).map((e) => e.display_name)).toEqual(['', 'Admins', 'payroll', 'Émigrés']);
  });

  it('a cursor goes on where it was when a run adds a name with a new first character before it', async () => {
    const first = await http.request('GET', `/v1/connections/${connection}/entities?kind=Account&limit=3`, { token: tokens.admin });
    expect(first.status).toBe(200);
    const page1 = first.body as { entities: EntityBody[]; next_cursor: string | null };
    expect(page1.entities.map((e) => e.display_name)).toEqual(['7of9@acme.test', 'adam@acme.test', expect.stringMatching(/^bea@acme\.test$/i)]);
    // "+" (U+002B) comes before "7": the name index gains a partition ahead of the cursor's.
    okta.state.org = orderedOrg([...people, oktaUser(207, { login: '+plus@acme.test', email: 'plus@example.com' })]);
    clock.advance(60);
    expect((await runToEnd(http, host, tokens.admin, connection)).status).toBe('succeeded');
    const second = await http.request('GET', `/v1/connections/${connection}/entities?kind=Account&limit=3&cursor=${encodeURIComponent(page1.next_cursor!)}`, { token: tokens.admin });
    expect(second.status).toBe(200);
    const page2 = second.body as { entities: EntityBody[]; next_cursor: string | null };
    expect(page2.entities.map((e) => e.display_name)).toEqual([expect.stringMatching(/^bea@acme\.test$/i), 'Zed@acme.test', 'émile@acme.test']);
    expect(page2.entities[0]!.display_name).not.toBe(page1.entities[2]!.display_name);
    expect((await listAll<EntityBody>(http, tokens.admin, `/v1/connections/${connection}/entities?kind=Account`, 'entities'))[0]!.display_name).toBe('+plus@acme.test');
  });

  it('an inventory stored before the name roster lists every entity, and its next run that succeeds puts them in order', async () => {
    const before = await entities(connection);
    const rosterKey = keys.inventoryNameInitials(home.tenantId, home.workspaceId, connection);
    expect(await host.deps.table.get(rosterKey)).toMatchObject({ complete: true });
    // As such an inventory is while its first run since is under way: a roster with only what
    // the first steps saw, not complete; and its entity without a name has no name-index entry.
    const nameless = before.find((e) => e.display_name === '')!;
    await host.deps.table.update({ Key: keys.inventoryEntity(home.tenantId, home.workspaceId, connection, nameless.kind, nameless.entity_id), UpdateExpression: 'REMOVE GSI1PK, GSI1SK' });
    await host.deps.table.put({ Item: { ...rosterKey, initials_Account: new Set([0x61]) } });
    const unordered = await entities(connection);
    expect(new Set(unordered.map((e) => e.entity_id))).toEqual(new Set(before.map((e) => e.entity_id)));
    expect(unordered).toHaveLength(before.length);
    clock.advance(60);
    expect((await runToEnd(http, host, tokens.admin, connection)).status).toBe('succeeded');
    expect((await entities(connection)).map((e) => e.entity_id)).toEqual(before.map((e) => e.entity_id));
  });

  it('a run that sees no new first character does not write the roster', async () => {
    const rosterKey = keys.inventoryNameInitials(home.tenantId, home.workspaceId, connection);
    const updates = vi.spyOn(host.deps.table, 'update');
    const transactions = vi.spyOn(host.deps.table, 'transact');
    const isRoster = (key: Record<string, unknown> | undefined) => key?.PK === rosterKey.PK && key.SK === rosterKey.SK;
    try {
      clock.advance(60);
      expect((await runToEnd(http, host, tokens.admin, connection)).status).toBe('succeeded');
      // The run record moves on by updates, and finishes in a transaction.
      expect(updates.mock.calls.length).toBeGreaterThan(0);
      expect(transactions.mock.calls.length).toBeGreaterThan(0);
      expect(updates.mock.calls.filter(([input]) => isRoster(input.Key))).toEqual([]);
      expect(transactions.mock.calls.flatMap(([items]) => items).filter((item) => isRoster(item.Update?.Key ?? item.Put?.Item))).toEqual([]);
    } finally {
      updates.mockRestore();
      transactions.mockRestore();
    }
  });
});
