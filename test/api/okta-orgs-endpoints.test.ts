/**
 * `TESSERA_CONNECTOR_ENDPOINTS` with one base URL per Okta org (API.md, Local mode): two
 * connections of two orgs, each tested and run against its own org's stand-in, and an org the
 * map does not list keeps its own URL (here unreachable, so its test says so).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { buildOrg, oktaToken, oktaUser, startFakeOkta, type FakeOkta } from '../../infra/local/stand-ins/okta';
import { listAll, runToEnd, type EntityBody } from '../support/runs';
import { startTestHost, type TestHost } from '../support/test-host';

let acme: FakeOkta;
let globex: FakeOkta;
let host: TestHost;
let http: HttpClient;
let token: string;
const clock = new MovableClock();

function orgOf(fake: FakeOkta, logins: string[]): void {
  fake.state.org = buildOrg({ users: logins.map((login, i) => oktaUser(i + 1, { login })), groups: [], members: {}, apps: [], appGroups: {} });
  fake.state.scopes = new Set(['okta.users.read', 'okta.groups.read', 'okta.apps.read', 'okta.roles.read']);
  fake.state.tokenUser = { user: oktaUser(9999, { login: 'tessera-discovery@example.test' }), roles: ['READ_ONLY_ADMIN'] };
}

beforeAll(async () => {
  [acme, globex] = await Promise.all([startFakeOkta(), startFakeOkta()]);
  orgOf(acme, ['ann@acme.example', 'abe@acme.example']);
  orgOf(globex, ['gil@globex.example']);
  const endpoints = { okta: { 'acme.okta.com': acme.url, 'globex.okta.com': globex.url } };
  host = await startTestHost({ clock, env: { TESSERA_CONNECTOR_ENDPOINTS: JSON.stringify(endpoints) } });
  http = api(host.url);
  const tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  token = (await login(http, clock, tenant.admin.email)).accessToken;
});
afterAll(async () => {
  await host?.close();
  await Promise.all([acme?.close(), globex?.close()]);
});

async function connectionOf(org: string): Promise<string> {
  const res = await http.request('POST', '/v1/connections', {
    token,
    body: { integration_id: 'int_okta_discovery', name: org, scope: {}, schedule: { type: 'daily', hour: 3, minute: 0 }, configuration: { org_url: `https://${org}`, api_token: oktaToken } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { connection_id: string }).connection_id;
}

describe('one base URL per Okta org', () => {
  it('tests and runs each connection against its own org', async () => {
    const [acmeId, globexId] = [await connectionOf('acme.okta.com'), await connectionOf('globex.okta.com')];
    for (const id of [acmeId, globexId]) {
      expect((await http.request('POST', `/v1/connections/${id}/test`, { token })).body).toMatchObject({ status: 'success' });
      expect((await runToEnd(http, host, token, id)).status).toBe('succeeded');
    }
    const accounts = async (id: string) =>
      (await listAll<EntityBody>(http, token, `/v1/connections/${id}/entities?kind=Account`, 'entities')).map((e) => e.display_name).sort();
    expect(await accounts(acmeId)).toEqual(['abe@acme.example', 'ann@acme.example']);
    expect(await accounts(globexId)).toEqual(['gil@globex.example']);
    expect(acme.calls.length).toBeGreaterThan(0);
    expect(globex.calls.length).toBeGreaterThan(0);
  });

  it('leaves an org the map does not list at its own URL', async () => {
    const before = acme.calls.length + globex.calls.length;
    const id = await connectionOf('initech.okta.com');
    const tested = await http.request('POST', `/v1/connections/${id}/test`, { token });
    expect(tested.body).toMatchObject({ status: 'failure' });
    expect(acme.calls.length + globex.calls.length).toBe(before);
  });
});
