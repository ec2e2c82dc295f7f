/**
 * Federated sessions against a real OpenID Provider (oidc-provider on loopback): a session
 * signed in by SSO ends, refresh and access tokens alike, when the tenant's IdP configuration
 * is deactivated or deleted, while local-password sessions of the same tenant go on; and an IdP
 * that asserts a sign-in time (`auth_time`) later than now + 60 s is refused at the callback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser } from '../support/browser';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, login, type Session, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startOidcProvider, type LocalOidcProvider } from '../../infra/local/stand-ins/openid-provider';
import { ssoErrorOf } from '../support/sso-answers';
import { startTestHost, type TestHost } from '../support/test-host';

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
let adminToken: string;
let idp: LocalOidcProvider;
const CLIENT_SECRET = 'oidc-client-secret-for-tessera-5e2a';
const BACK = 'https://console.example.com/sso/done';

const idpPath = () => `/v1/tenants/${tenant.tenantId}/idp`;
const idpSettings = () => ({ provider_type: 'oidc', issuer: idp.issuer, client_id: 'tessera', client_secret: CLIENT_SECRET, email_domains: [tenant.domain], allowed_redirect_uris: [BACK], default_role: 'viewer', active: true });

beforeAll(async () => {
  host = await startTestHost({ clock });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
  idp = await startOidcProvider({
    clients: [{ client_id: 'tessera', client_secret: CLIENT_SECRET, redirect_uris: [`${host.url}/v1/auth/sso/${tenant.slug}/callback`] }],
    accounts: { alice: { email: `alice@${tenant.domain}` }, bob: { email: `bob@${tenant.domain}` } },
  });
  const res = await http.request('POST', idpPath(), { token: adminToken, body: idpSettings() });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
});
afterAll(async () => {
  await idp?.close();
  await host?.close();
});

/** start → sign `account` in at the IdP → the callback's answer (a redirect back to BACK). */
async function ssoCallback(account: string) {
  const start = await http.request('GET', `/v1/auth/sso/${tenant.slug}/start?redirect_uri=${encodeURIComponent(BACK)}`);
  expect(start.status, start.text).toBe(302);
  const browser = new Browser();
  const auth = await browser.get(start.headers.location!);
  expect(auth.location, auth.text).toMatch(/\/interaction\//);
  const submitted = await browser.postForm(auth.location!, { login: account, amr: 'pwd' });
  const resumed = await browser.get(submitted.location!);
  expect(resumed.location, resumed.text).toContain(`/v1/auth/sso/${tenant.slug}/callback`);
  return http.request('GET', resumed.location!);
}

function codeOf(res: { status: number; headers: Record<string, string | undefined> }): string {
  expect(res.status).toBe(302);
  const code = new URL(res.headers.location!).searchParams.get('code');
  expect(code, res.headers.location).toMatch(/^tsr_code_/);
  return code!;
}

const exchange = (code: string) => http.request('POST', '/v1/auth/token', { body: { grant_type: 'sso_code', code } });

async function ssoSession(account: string): Promise<Session> {
  const tokens = await exchange(codeOf(await ssoCallback(account)));
  expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
  const body = tokens.body as { access_token: string; refresh_token: string };
  return { accessToken: body.access_token, refreshToken: body.refresh_token };
}

const me = (token: string) => http.request('GET', '/v1/me', { token });
const refresh = (refreshToken: string) => http.request('POST', '/v1/auth/token', { body: { grant_type: 'refresh_token', refresh_token: refreshToken } });

/** Both halves of a session still work (the refresh is spent: the next one is handed back). */
async function expectAlive(session: Session): Promise<Session> {
  expect((await me(session.accessToken)).status).toBe(200);
  const next = await refresh(session.refreshToken);
  expect(next.status, JSON.stringify(next.body)).toBe(200);
  const body = next.body as { access_token: string; refresh_token: string };
  return { accessToken: body.access_token, refreshToken: body.refresh_token };
}

async function expectEnded(session: Session): Promise<void> {
  expect((await me(session.accessToken)).status).toBe(401);
  expect((await refresh(session.refreshToken)).status).toBe(401);
}

describe('an IdP-asserted sign-in time', () => {
  it('later than now + 60 s is refused at the callback (no code); within the minute it is accepted', async () => {
    try {
      idp.mutateIdToken = (claims) => ({ ...claims, auth_time: Math.floor(Date.now() / 1000) + 3600 });
      expect(ssoErrorOf(await ssoCallback('alice'), BACK)).toMatch(/sign-in happened in the future/);
      idp.mutateIdToken = (claims) => ({ ...claims, auth_time: Math.floor(Date.now() / 1000) + 30 });
      expect((await exchange(codeOf(await ssoCallback('alice')))).status).toBe(200);
    } finally {
      idp.mutateIdToken = undefined;
    }
  });
});

describe('federated sessions', () => {
  it('end when the IdP configuration is deactivated; local-password sessions of the tenant go on', async () => {
    const local = await login(http, clock, tenant.admin.email);
    const email = `local-user@${tenant.domain}`;
    await createUser(http, adminToken, { email, role: 'viewer' });
    const localUser = await login(http, clock, email);
    const alice = await expectAlive(await ssoSession('alice'));
    const bob = await ssoSession('bob');

    const off = await http.request('PATCH', idpPath(), { token: local.accessToken, body: { active: false } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    await expectEnded(alice);
    await expectEnded(bob);
    await expectAlive(localUser);
    await expectAlive(local);

    // Switched on again: a new SSO sign-in works; the ended sessions stay ended.
    expect((await http.request('PATCH', idpPath(), { token: local.accessToken, body: { active: true } })).status).toBe(200);
    await expectAlive(await ssoSession('alice'));
    expect((await refresh(alice.refreshToken)).status).toBe(401);
  });

  it('end when the IdP configuration is deleted, including one whose code is exchanged after the deletion', async () => {
    const local = await login(http, clock, tenant.admin.email);
    expect((await http.request('PATCH', idpPath(), { token: local.accessToken, body: { active: true } })).status).toBe(200);
    const alice = await ssoSession('alice');
    // A sign-in in flight: the IdP answered, the client has not exchanged its code yet.
    const pendingCode = codeOf(await ssoCallback('bob'));

    expect((await http.request('DELETE', idpPath(), { token: local.accessToken })).status).toBe(204);
    await expectEnded(alice);
    expect((await exchange(pendingCode)).status).toBe(401);
    await expectAlive(local);
    expect((await http.request('GET', idpPath(), { token: local.accessToken })).status).toBe(404);

    // Configured again, SSO signs people in as before.
    expect((await http.request('POST', idpPath(), { token: local.accessToken, body: idpSettings() })).status).toBe(201);
    await expectAlive(await ssoSession('alice'));
  });
});
