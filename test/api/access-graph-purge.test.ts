/**
 * A deleted connection's Principals leave the workspace's people (API.md "Access graph": a
 * person goes with its last Principal): once the connection's purge has run, a person only it
 * gave is gone, and a person with Principals in another connection stays, with that
 * connection's accounts, emails and name only. Another workspace's people are untouched.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, login } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { AWS_ACCOUNT, AWS_SECOND_ACCOUNT, awsRole, awsUser, sampleAccounts, startFakeAws, type FakeAws } from '../../infra/local/stand-ins/aws';
import { buildOrg, oktaApp, oktaGroup, oktaToken, oktaUser, startFakeOkta, type FakeOkta } from '../../infra/local/stand-ins/okta';
import { createConnection as createConnectionOver } from '../support/connections';
import { listAll, runToEnd } from '../support/runs';
import { startTestHost, type TestHost } from '../support/test-host';

interface PersonBody {
  person_id: string;
  display_name: string;
  emails: string[];
  accounts: number;
  connections: string[];
}

let okta: FakeOkta;
let aws: FakeAws;
let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
const tokens = { admin: '', otherWorkspace: '' };
let oktaConnection = '';
let awsConnection = '';

const alice = oktaUser(1, { login: 'alice@acme.test', email: 'ALICE@Example.com' });
const bob = oktaUser(2, { login: 'bob@acme.test', email: 'bob@example.com' });
const carol = oktaUser(3, { login: 'carol@acme.test', email: 'Carol@example.com' });
const staff = oktaGroup(1, 'Staff');
const wiki = oktaApp(1, 'Wiki');

const createConnection = (token: string, body: Record<string, unknown>) => createConnectionOver(http, token, body);
const oktaBody = { integration_id: 'int_okta_discovery', name: 'okta', scope: {}, configuration: { org_url: 'https://acme.okta.com', api_token: oktaToken } };
const people = (query = '', token = tokens.admin) => listAll<PersonBody>(http, token, `/v1/people${query}`, 'people');
const byEmail = (all: PersonBody[], email: string) => all.find((p) => p.emails.map((e) => e.toLowerCase()).includes(email));

beforeAll(async () => {
  okta = await startFakeOkta({ org: buildOrg({ users: [alice, bob, carol], groups: [staff], members: { [staff.id]: [alice.id, bob.id, carol.id] }, apps: [wiki], appGroups: { [wiki.id]: [staff.id] } }) });
  aws = await startFakeAws();
  aws.state.accounts = sampleAccounts();
  // One-second steps: the purge's second pass waits for a step's length after the deletion.
  host = await startTestHost({ clock, env: { TESSERA_CONNECTOR_ENDPOINTS: JSON.stringify({ okta: okta.url, sts: aws.url, iam: aws.url }), TESSERA_RUN_STEP_SECONDS: '1' } });
  http = api(host.url);
  const tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  tokens.admin = (await login(http, clock, tenant.admin.email)).accessToken;
  const other = await http.request('POST', '/v1/workspaces', { token: tokens.admin, body: { name: 'globex' } });
  expect(other.status).toBe(201);
  await createUser(http, tokens.admin, { email: `other@${tenant.domain}`, role: 'admin', workspace_id: (other.body as { id: string }).id });
  tokens.otherWorkspace = (await login(http, clock, `other@${tenant.domain}`)).accessToken;

  oktaConnection = await createConnection(tokens.admin, oktaBody);
  awsConnection = await createConnection(tokens.admin, {
    integration_id: 'int_aws_iam_discovery',
    name: 'aws',
    scope: { account_ids: [AWS_ACCOUNT, AWS_SECOND_ACCOUNT] },
    configuration: { access_key_id: awsUser.accessKeyId, secret_access_key: awsUser.secretAccessKey, region: 'eu-west-1', role_arn: awsRole.arn, external_id: awsRole.externalId! },
  });
  const otherConnection = await createConnection(tokens.otherWorkspace, oktaBody);
  expect((await runToEnd(http, host, tokens.admin, oktaConnection)).status).toBe('succeeded');
  expect((await runToEnd(http, host, tokens.admin, awsConnection)).status).toBe('succeeded');
  expect((await runToEnd(http, host, tokens.otherWorkspace, otherConnection)).status).toBe('succeeded');
}, 120_000);
afterAll(async () => {
  await host?.close();
  await okta?.close();
  await aws?.close();
});

it('a deleted connection\'s Principals leave the people: a person goes with its last Principal, one with Principals elsewhere keeps only those', async () => {
  const before = await people();
  const aliceBefore = byEmail(before, 'alice@example.com')!;
  const bobBefore = byEmail(before, 'bob@example.com')!;
  // The AWS account's users tagged with alice's email, and her Okta user.
  expect(aliceBefore).toMatchObject({ accounts: 3, connections: [oktaConnection, awsConnection].sort() });
  expect(byEmail(before, 'carol@example.com')).toMatchObject({ accounts: 2, connections: [oktaConnection, awsConnection].sort() });
  expect(bobBefore).toMatchObject({ accounts: 1, connections: [oktaConnection] });
  const awsOnly = before.filter((p) => !p.connections.includes(oktaConnection));
  expect(awsOnly.length).toBeGreaterThan(0);
  const otherWorkspaceBefore = await people('', tokens.otherWorkspace);
  expect(otherWorkspaceBefore).toHaveLength(3);

  expect((await http.request('DELETE', `/v1/connections/${oktaConnection}`, { token: tokens.admin })).status).toBe(204);
  await host.runQueue.idle(); // both purge passes (the second one delayed)

  const after = await people();
  // bob@example.com had only his Okta user: gone, from the list, the search and by id.
  expect(byEmail(after, 'bob@example.com')).toBeUndefined();
  expect((await http.request('GET', `/v1/people/${bobBefore.person_id}`, { token: tokens.admin })).status).toBe(404);
  expect((await people('?q=bob%40')).map((p) => p.person_id)).toEqual([]);
  // alice and carol stay, with their AWS users only.
  const aliceAfter = byEmail(after, 'alice@example.com')!;
  expect(aliceAfter).toMatchObject({ person_id: aliceBefore.person_id, accounts: 2, connections: [awsConnection] });
  expect(aliceAfter.emails).toEqual(['alice@example.com']);
  expect(byEmail(after, 'carol@example.com')).toMatchObject({ accounts: 1, connections: [awsConnection] });
  expect((await people('?q=ali')).map((p) => p.person_id)).toEqual([aliceBefore.person_id]);
  const detail = (await http.request('GET', `/v1/people/${aliceBefore.person_id}`, { token: tokens.admin })).body as { accounts: { connection_id: string }[] };
  expect(detail.accounts.map((a) => a.connection_id)).toEqual([awsConnection, awsConnection]);
  const access = await listAll<{ connection_id: string }>(http, tokens.admin, `/v1/people/${aliceBefore.person_id}/access`, 'access');
  expect(access.length).toBeGreaterThan(0);
  expect(new Set(access.map((a) => a.connection_id))).toEqual(new Set([awsConnection]));
  // Everyone else is as before; nobody names the deleted connection.
  expect(after.map((p) => p.person_id).sort()).toEqual(before.filter((p) => p.person_id !== bobBefore.person_id).map((p) => p.person_id).sort());
  expect(after.filter((p) => p.connections.includes(oktaConnection))).toEqual([]);
  expect(after.filter((p) => !p.connections.includes(oktaConnection) && awsOnly.some((o) => o.person_id === p.person_id))).toEqual(awsOnly);
  // The other workspace's connection to the same org keeps its people.
  expect(await people('', tokens.otherWorkspace)).toEqual(otherWorkspaceBefore);

  // The last connection goes: so does everyone.
  expect((await http.request('DELETE', `/v1/connections/${awsConnection}`, { token: tokens.admin })).status).toBe(204);
  await host.runQueue.idle();
  expect(await people()).toEqual([]);
  expect(await people('?q=a')).toEqual([]);
}, 120_000);
