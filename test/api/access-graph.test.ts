/**
 * The access graph over HTTP (API.md "Access graph"): an Okta org and an AWS account whose
 * people overlap (the same email, spelled in other cases by each provider) become one set of
 * people; what a person reaches, who reaches an app, and what a second run's membership change
 * did (gained / lost). A second workspace of the same tenant, with a connection to the same
 * Okta org (so the same emails), has people of its own and never shows in the first; another
 * tenant finds nothing; a viewer reads all. A Principal renamed by its provider renames its
 * person, and the run says what changed in it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateAccessGraph } from '../../shared/access/run-graph-upkeep';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, login, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { AWS_ACCOUNT, AWS_SECOND_ACCOUNT, awsRole, awsUser, sampleAccounts, startFakeAws, type FakeAws } from '../../infra/local/stand-ins/aws';
import { oktaToken, startFakeOkta, type FakeOkta } from '../../infra/local/stand-ins/okta';
import { acme, acmeOrg, createConnection as createConnectionOver } from '../support/connections';
import { listAll, runToEnd, type ChangeBody, type EntityBody, type RunBody } from '../support/runs';
import { startTestHost, type TestHost } from '../support/test-host';

interface Ref {
  entity_id: string;
  kind: string;
  source_id: string;
  display_name: string;
}
interface PersonBody {
  person_id: string;
  display_name: string;
  emails: string[];
  accounts: number;
  connections: string[];
}
interface AccessBody {
  connection_id: string;
  target: Ref;
  paths: Ref[][];
}
interface HolderBody {
  person: { person_id: string; display_name: string };
  account: Ref;
  paths: Ref[][];
}
interface AccessChangeBody {
  at: string;
  run_id: string;
  connection_id: string;
  change: 'gained' | 'lost';
  person: { person_id: string; display_name: string };
  target: Ref;
  via: Ref;
}

let okta: FakeOkta;
let aws: FakeAws;
let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
const tokens = { admin: '', viewer: '', otherWorkspace: '', otherTenant: '' };
let oktaConnection = '';
let awsConnection = '';
let otherConnection = '';
let firstOktaRun: RunBody;
let tenant: TestTenant;

const { alice, bob, carol, payrollUsers, admins, payroll, adminConsole } = acme;


const createConnection = (token: string, body: Record<string, unknown>) => createConnectionOver(http, token, body);

const get = async <T>(path: string, token = tokens.admin): Promise<T> => {
  const res = await http.request('GET', path, { token });
  expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(200);
  return res.body as T;
};

const people = (query = '', token = tokens.admin) => listAll<PersonBody>(http, token, `/v1/people${query}`, 'people');
const personByEmail = async (email: string) => (await people()).find((p) => p.emails.includes(email))!;
const entityOf = async (connectionId: string, sourceId: string) => (await listAll<EntityBody>(http, tokens.admin, `/v1/connections/${connectionId}/entities`, 'entities')).find((e) => e.source_id === sourceId)!;

beforeAll(async () => {
  okta = await startFakeOkta({ org: acmeOrg({ [payrollUsers.id]: [alice.id, bob.id], [admins.id]: [alice.id] }) });
  aws = await startFakeAws();
  aws.state.accounts = sampleAccounts();
  host = await startTestHost({
    clock,
    env: { TESSERA_CONNECTOR_ENDPOINTS: JSON.stringify({ okta: okta.url, sts: aws.url, iam: aws.url }) },
  });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  tokens.admin = (await login(http, clock, tenant.admin.email)).accessToken;
  await createUser(http, tokens.admin, { email: `viewer@${tenant.domain}`, role: 'viewer' });
  tokens.viewer = (await login(http, clock, `viewer@${tenant.domain}`)).accessToken;
  const other = await http.request('POST', '/v1/workspaces', { token: tokens.admin, body: { name: 'globex' } });
  expect(other.status).toBe(201);
  await createUser(http, tokens.admin, { email: `other@${tenant.domain}`, role: 'admin', workspace_id: (other.body as { id: string }).id });
  tokens.otherWorkspace = (await login(http, clock, `other@${tenant.domain}`)).accessToken;
  const otherTenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  tokens.otherTenant = (await login(http, clock, otherTenant.admin.email)).accessToken;

  oktaConnection = await createConnection(tokens.admin, { integration_id: 'int_okta_discovery', name: 'okta', scope: {}, configuration: { org_url: 'https://acme.okta.com', api_token: oktaToken } });
  awsConnection = await createConnection(tokens.admin, {
    integration_id: 'int_aws_iam_discovery',
    name: 'aws',
    scope: { account_ids: [AWS_ACCOUNT, AWS_SECOND_ACCOUNT] },
    configuration: { access_key_id: awsUser.accessKeyId, secret_access_key: awsUser.secretAccessKey, region: 'eu-west-1', role_arn: awsRole.arn, external_id: awsRole.externalId! },
  });
  otherConnection = await createConnection(tokens.otherWorkspace, { integration_id: 'int_okta_discovery', name: 'the same okta', scope: {}, configuration: { org_url: 'https://acme.okta.com', api_token: oktaToken } });
  firstOktaRun = await runToEnd(http, host, tokens.admin, oktaConnection);
  expect(firstOktaRun.status).toBe('succeeded');
  expect((await runToEnd(http, host, tokens.admin, awsConnection)).status).toBe('succeeded');
  expect((await runToEnd(http, host, tokens.otherWorkspace, otherConnection)).status).toBe('succeeded');
}, 120_000);
afterAll(async () => {
  await host?.close();
  await okta?.close();
  await aws?.close();
});

describe('people', () => {
  it('one person per email across connections, whatever case each provider spells it in; a Principal without email is a person of its own', async () => {
    const all = await people();
    const alicePerson = all.find((p) => p.emails.includes('alice@example.com'))!;
    // Okta's alice (ALICE@Example.com) and the AWS users tagged Alice@Example.com and alice@example.com.
    expect(alicePerson).toMatchObject({ display_name: 'alice@example.com', accounts: 3, connections: [oktaConnection, awsConnection].sort() });
    expect(all.find((p) => p.emails.includes('carol@example.com'))).toMatchObject({ accounts: 2, connections: [oktaConnection, awsConnection].sort() });
    expect(all.find((p) => p.emails.includes('bob@example.com'))).toMatchObject({ accounts: 1, connections: [oktaConnection] });
    // AWS users without an email tag: bob, ci-deployer, the discovery user.
    const emailless = all.filter((p) => p.emails.length === 0).map((p) => p.display_name).sort();
    expect(emailless).toEqual(['bob', 'ci-deployer', 'tessera-discovery']);
    expect(all).toHaveLength(6);
    // Ordered by display name case-insensitively, then id; paging one by one gives the same list.
    const keys = all.map((p) => `${p.display_name.toLowerCase()}\u0001${p.person_id}`);
    expect(keys).toEqual([...keys].sort());
    expect((await listAll<PersonBody>(http, tokens.admin, '/v1/people', 'people', 1)).map((p) => p.person_id)).toEqual(all.map((p) => p.person_id));
  });

  it('q is a case-insensitive prefix of the display name or of an email', async () => {
    expect((await people('?q=ALI')).map((p) => p.emails)).toEqual([['alice@example.com']]);
    expect((await people('?q=bob')).map((p) => p.display_name)).toEqual(['bob', 'bob@example.com']);
    expect((await people('?q=bob%40')).map((p) => p.display_name)).toEqual(['bob@example.com']);
    expect(await people('?q=zz')).toEqual([]);
  });

  it('a person names each account with its connection', async () => {
    const alicePerson = await personByEmail('alice@example.com');
    const detail = await get<{ person_id: string; emails: string[]; accounts: (Ref & { connection_id: string })[] }>(`/v1/people/${alicePerson.person_id}`);
    expect(detail.accounts.map((a) => `${a.connection_id === oktaConnection ? 'okta' : 'aws'} ${a.kind} ${a.display_name}`).sort()).toEqual(['aws Account alice', 'aws Account alice.ops', 'okta Account alice@acme.test']);
    expect(detail.accounts.find((a) => a.display_name === 'alice@acme.test')).toMatchObject({ source_id: alice.id, connection_id: oktaConnection });
    const missing = await http.request('GET', `/v1/people/per_${'0'.repeat(26)}`, { token: tokens.admin });
    expect(missing.status).toBe(404);
  });
});

describe('access', () => {
  it('what alice can reach: every group and app of Okta and every policy and resource of AWS, each path named hop by hop', async () => {
    const alicePerson = await personByEmail('alice@example.com');
    const access = await listAll<AccessBody>(http, tokens.admin, `/v1/people/${alicePerson.person_id}/access?connection_id=${oktaConnection}`, 'access');
    expect(access.map((a) => `${a.target.kind} ${a.target.display_name}`).sort()).toEqual(['Entitlement Admins', 'Entitlement Payroll users', 'Resource Admin Console', 'Resource Payroll']);
    const payrollAccess = access.find((a) => a.target.source_id === payroll.id)!;
    expect(payrollAccess.paths.map((path) => path.map((hop) => hop.display_name))).toEqual([['alice@acme.test', 'Payroll users', 'Payroll']]);
    expect(payrollAccess.paths[0]![0]).toMatchObject({ kind: 'Account', source_id: alice.id });

    const everything = await listAll<AccessBody>(http, tokens.admin, `/v1/people/${alicePerson.person_id}/access`, 'access');
    const inAws = everything.filter((a) => a.connection_id === awsConnection);
    // Alice's AWS users hold AdministratorAccess (Admins, Ops) and Developers' DevS3 and its bucket.
    expect(inAws.map((a) => a.target.source_id)).toEqual(expect.arrayContaining(['arn:aws:iam::aws:policy/AdministratorAccess', 'arn:aws:s3:::dev-bucket']));
    const administrator = inAws.find((a) => a.target.source_id === 'arn:aws:iam::aws:policy/AdministratorAccess')!;
    expect(administrator.paths.map((p) => p[0]!.display_name).sort()).toEqual(['alice', 'alice.ops']);
    expect(everything.filter((a) => a.connection_id === oktaConnection)).toHaveLength(4);

    const resources = await listAll<AccessBody>(http, tokens.admin, `/v1/people/${alicePerson.person_id}/access?kind=Resource`, 'access');
    expect(resources.length).toBeGreaterThan(2);
    expect(resources.every((a) => a.target.kind === 'Resource')).toBe(true);
    // Pages of one give the same items.
    expect((await listAll<AccessBody>(http, tokens.admin, `/v1/people/${alicePerson.person_id}/access`, 'access', 1)).map((a) => a.target.entity_id)).toEqual(everything.map((a) => a.target.entity_id));
  });

  it('who can reach the payroll app: each person and account, with the path', async () => {
    const app = await entityOf(oktaConnection, payroll.id);
    const holders = await listAll<HolderBody>(http, tokens.admin, `/v1/connections/${oktaConnection}/entities/${app.entity_id}/access`, 'access');
    expect(holders.map((h) => `${h.person.display_name} ${h.account.display_name}`).sort()).toEqual(['alice@example.com alice@acme.test', 'bob@example.com bob@acme.test']);
    expect(holders[0]!.paths.map((p) => p.map((hop) => hop.kind))).toEqual([['Account', 'Entitlement', 'Resource']]);
    expect(holders.find((h) => h.account.source_id === alice.id)!.person.person_id).toBe((await personByEmail('alice@example.com')).person_id);
    // An entitlement: its holders directly.
    const group = await entityOf(oktaConnection, admins.id);
    const adminHolders = await get<{ access: HolderBody[] }>(`/v1/connections/${oktaConnection}/entities/${group.entity_id}/access`);
    expect(adminHolders.access.map((h) => h.account.display_name)).toEqual(['alice@acme.test']);
    expect((await http.request('GET', `/v1/connections/${oktaConnection}/entities/ent_${'0'.repeat(26)}/access`, { token: tokens.admin })).status).toBe(404);
  });
});

describe('access history', () => {
  it('a first run records nothing; a second run that changes memberships records who gained and lost what, and via which hop', async () => {
    expect(await listAll<AccessChangeBody>(http, tokens.admin, '/v1/access-changes', 'access_changes')).toEqual([]);
    okta.state.org = acmeOrg({ [payrollUsers.id]: [alice.id], [admins.id]: [alice.id, carol.id] });
    clock.advance(60);
    const second = await runToEnd(http, host, tokens.admin, oktaConnection);
    expect(second.status).toBe('succeeded');

    const changes = await listAll<AccessChangeBody>(http, tokens.admin, '/v1/access-changes', 'access_changes');
    expect(changes.map((c) => `${c.change} ${c.person.display_name} ${c.target.display_name} via ${c.via.display_name}`).sort()).toEqual([
      'gained carol@example.com Admin Console via Admins',
      'gained carol@example.com Admins via carol@acme.test',
      'lost bob@example.com Payroll users via bob@acme.test',
      'lost bob@example.com Payroll via Payroll users',
    ]);
    for (const change of changes) expect(change).toMatchObject({ at: second.finished_at, run_id: second.run_id, connection_id: oktaConnection });
    expect(changes.find((c) => c.target.display_name === 'Admin Console')!.target).toMatchObject({ kind: 'Resource', source_id: adminConsole.id });

    // Who gained admin this week; one person's history; one connection's; a time window.
    const carolPerson = await personByEmail('carol@example.com');
    const ofCarol = await listAll<AccessChangeBody>(http, tokens.admin, `/v1/access-changes?person_id=${carolPerson.person_id}`, 'access_changes');
    expect(ofCarol.map((c) => c.target.display_name).sort()).toEqual(['Admin Console', 'Admins']);
    expect(await listAll(http, tokens.admin, `/v1/access-changes?connection_id=${awsConnection}`, 'access_changes')).toEqual([]);
    expect(await listAll(http, tokens.admin, `/v1/access-changes?connection_id=${oktaConnection}`, 'access_changes')).toHaveLength(4);
    expect(await listAll(http, tokens.admin, `/v1/access-changes?since=${encodeURIComponent(second.finished_at!)}`, 'access_changes')).toHaveLength(4);
    expect(await listAll(http, tokens.admin, `/v1/access-changes?until=${encodeURIComponent(second.finished_at!)}`, 'access_changes')).toEqual([]);
    expect((await listAll<AccessChangeBody>(http, tokens.admin, '/v1/access-changes', 'access_changes', 1)).map((c) => c.target.entity_id)).toEqual(changes.map((c) => c.target.entity_id));

    // The graph follows: bob no longer reaches Payroll, carol reaches the Admin Console.
    const app = await entityOf(oktaConnection, payroll.id);
    const holders = await listAll<HolderBody>(http, tokens.admin, `/v1/connections/${oktaConnection}/entities/${app.entity_id}/access`, 'access');
    expect(holders.map((h) => h.person.display_name)).toEqual(['alice@example.com']);
    const carolAccess = await listAll<AccessBody>(http, tokens.admin, `/v1/people/${carolPerson.person_id}/access?connection_id=${oktaConnection}`, 'access');
    expect(carolAccess.map((a) => a.target.display_name).sort()).toEqual(['Admin Console', 'Admins']);

    const invalid = await http.request('GET', '/v1/access-changes?since=yesterday', { token: tokens.admin });
    expect(invalid.status).toBe(400);
  });

  it('the graph\'s part of a run done again (a retried last step) changes nothing: no count doubles, no change repeats, the time stays', async () => {
    const runs = await listAll<RunBody>(http, tokens.admin, `/v1/connections/${oktaConnection}/runs`, 'runs');
    const latest = runs[0]!;
    const before = { people: await people(), changes: await listAll<AccessChangeBody>(http, tokens.admin, '/v1/access-changes', 'access_changes') };
    expect(before.changes.length).toBeGreaterThan(0);
    clock.advance(5);
    const scope = { tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, connectionId: oktaConnection };
    // The first run added the Principals and their accounts; the second changed memberships.
    expect(await updateAccessGraph(host.deps, scope, firstOktaRun.run_id, clock.now().toISOString())).toBe(firstOktaRun.finished_at);
    expect(await updateAccessGraph(host.deps, scope, latest.run_id, clock.now().toISOString())).toBe(latest.finished_at);
    expect(await people()).toEqual(before.people);
    expect(await listAll<AccessChangeBody>(http, tokens.admin, '/v1/access-changes', 'access_changes')).toEqual(before.changes);
  });
});

describe('who may read', () => {
  it('a viewer reads people, access and history', async () => {
    const alicePerson = await personByEmail('alice@example.com');
    const app = await entityOf(oktaConnection, payroll.id);
    expect((await people('', tokens.viewer)).map((p) => p.person_id)).toEqual((await people()).map((p) => p.person_id));
    for (const path of [`/v1/people/${alicePerson.person_id}`, `/v1/people/${alicePerson.person_id}/access`, `/v1/connections/${oktaConnection}/entities/${app.entity_id}/access`, '/v1/access-changes']) {
      expect((await http.request('GET', path, { token: tokens.viewer })).status, path).toBe(200);
    }
  });

  it('another workspace of the tenant has its own people and never sees this one\'s', async () => {
    const mine = await people();
    const theirs = await people('', tokens.otherWorkspace);
    expect(theirs.map((p) => p.emails[0]).sort()).toEqual(['alice@example.com', 'bob@example.com', 'carol@example.com']);
    expect(theirs.every((p) => p.connections.join() === otherConnection)).toBe(true);
    expect(mine.filter((p) => p.connections.includes(otherConnection))).toEqual([]);
    // The same email is another person in another workspace.
    const theirAlice = theirs.find((p) => p.emails.includes('alice@example.com'))!;
    const myAlice = mine.find((p) => p.emails.includes('alice@example.com'))!;
    expect(theirAlice.person_id).not.toBe(myAlice.person_id);
    expect(theirAlice).toMatchObject({ accounts: 1, connections: [otherConnection] });
    const app = await entityOf(oktaConnection, payroll.id);
    for (const path of [`/v1/people/${myAlice.person_id}`, `/v1/people/${myAlice.person_id}/access`, `/v1/connections/${oktaConnection}/entities/${app.entity_id}/access`]) {
      expect((await http.request('GET', path, { token: tokens.otherWorkspace })).status, path).toBe(404);
    }
    expect(await listAll(http, tokens.otherWorkspace, `/v1/access-changes?person_id=${myAlice.person_id}`, 'access_changes')).toEqual([]);
    expect(await listAll(http, tokens.otherWorkspace, '/v1/access-changes', 'access_changes')).toEqual([]);
  });

  it('another tenant finds nothing, and a caller without a credential is refused', async () => {
    const myAlice = await personByEmail('alice@example.com');
    const app = await entityOf(oktaConnection, payroll.id);
    expect(await people('', tokens.otherTenant)).toEqual([]);
    for (const path of [`/v1/people/${myAlice.person_id}`, `/v1/people/${myAlice.person_id}/access`, `/v1/connections/${oktaConnection}/entities/${app.entity_id}/access`]) {
      expect((await http.request('GET', path, { token: tokens.otherTenant })).status, path).toBe(404);
    }
    expect(await listAll(http, tokens.otherTenant, '/v1/access-changes', 'access_changes')).toEqual([]);
    expect((await http.request('GET', '/v1/people')).status).toBe(401);
  });
});

describe('a renamed Principal', () => {
  it('a Principal whose name changes (an IAM user without an email tag, renamed) renames its person, and its run says what changed', async () => {
    const before = (await people()).find((p) => p.display_name === 'ci-deployer')!;
    const deployer = aws.state.accounts[AWS_ACCOUNT]!.users.find((u) => u.name === 'ci-deployer')!;
    deployer.name = 'ci-deployer-2';
    try {
      const run = await runToEnd(http, host, tokens.admin, awsConnection);
      expect(run.status).toBe('succeeded');
      const changes = await listAll<ChangeBody>(http, tokens.admin, `/v1/connections/${awsConnection}/runs/${run.run_id}/changes`, 'changes');
      expect(changes.filter((c) => c.kind === 'Principal')).toEqual([expect.objectContaining({ change: 'changed', display_name: 'ci-deployer-2', changed_attributes: [{ attribute: 'display_name', before: 'ci-deployer', after: 'ci-deployer-2' }] })]);
      // The same person (the user id is the Principal's source id), by its new name.
      expect((await people()).find((p) => p.person_id === before.person_id)).toMatchObject({ display_name: 'ci-deployer-2' });
    } finally {
      deployer.name = 'ci-deployer';
      expect((await runToEnd(http, host, tokens.admin, awsConnection)).status).toBe('succeeded');
    }
    expect((await people()).find((p) => p.person_id === before.person_id)).toMatchObject({ display_name: 'ci-deployer' });
  });
});
