/**
 * OIDC single sign-on at its edges: callbacks that find no login (unknown tenant, junk state),
 * a login whose tenant switches SSO off meanwhile, an answer of the wrong protocol, and an SSO
 * code of a user disabled before the exchange. Every refusal after the login is found goes back
 * to the client application as `?error=`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser } from '../support/browser';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, identityAuditEvents, login, type TestTenant } from '../support/identity-fixtures';
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
const CLIENT_SECRET = 'oidc-client-secret-for-sso-edges-1';
const BACK = 'https://console.example.com/sso/done';

beforeAll(async () => {
  host = await startTestHost({ clock });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
  idp = await startOidcProvider({
    clients: [{ client_id: 'tessera', client_secret: CLIENT_SECRET, redirect_uris: [`${host.url}/v1/auth/sso/${tenant.slug}/callback`] }],
    accounts: { erin: { email: `erin@${tenant.domain}` } },
  });
  const res = await http.request('POST', `/v1/tenants/${tenant.tenantId}/idp`, {
    token: adminToken,
    body: { provider_type: 'oidc', issuer: idp.issuer, client_id: 'tessera', client_secret: CLIENT_SECRET, email_domains: [tenant.domain], allowed_redirect_uris: [BACK], active: true },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
});
afterAll(async () => {
  await idp?.close();
  await host?.close();
});

const callbackPath = `/v1/auth/sso/{slug}/callback`;
const callbackOf = (slug = tenant.slug) => callbackPath.replace('{slug}', slug);

/** Starts a login; returns the `state` Tessera sent to the IdP. */
async function startLogin(): Promise<{ authorization: URL; state: string }> {
  const res = await http.request('GET', `/v1/auth/sso/${tenant.slug}/start?redirect_uri=${encodeURIComponent(BACK)}`);
  expect(res.status, res.text).toBe(302);
  const authorization = new URL(res.headers.location!);
  return { authorization, state: authorization.searchParams.get('state')! };
}

/** Signs `account` in at the IdP; returns Tessera's callback URL the browser is sent to. */
async function authorizeAtIdp(authorization: URL, account: string): Promise<string> {
  const browser = new Browser();
  const auth = await browser.get(authorization.href);
  expect(auth.location, auth.text).toMatch(/\/interaction\//);
  await browser.get(auth.location!);
  const submitted = await browser.postForm(auth.location!, { login: account, amr: 'pwd', acr: 'urn:test:loa:1' });
  const resumed = await browser.get(submitted.location!);
  expect(resumed.location, resumed.text).toContain(callbackOf());
  return resumed.location!;
}

async function loginFailures() {
  return (await identityAuditEvents(host.deps, tenant.tenantId)).filter((e) => e.action === 'login_failed');
}

async function setActive(active: boolean): Promise<void> {
  const res = await http.request('PATCH', `/v1/tenants/${tenant.tenantId}/idp`, { token: adminToken, body: { active } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('OIDC single sign-on at its edges', () => {
  it('a callback that finds no login is a problem+json, not a redirect', async () => {
    const { state } = await startLogin();
    const unknownTenant = await http.request('GET', `${callbackOf('t-no-such-tenant')}?code=x&state=${state}`);
    expect(unknownTenant.status, unknownTenant.text).toBe(404);
    expect(unknownTenant.body).toMatchObject({ code: 'not_found' });
    for (const junk of ['', 'state=short', 'state=%00%01']) {
      const res = await http.request('GET', `${callbackOf()}?code=x&${junk}`);
      expect(res.status, `${junk}: ${res.text}`).toBe(401);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.headers.location).toBeUndefined();
    }
    // The login in flight was not consumed by any of them: it still completes.
    const done = await http.request('GET', await authorizeAtIdp((await startLogin()).authorization, 'erin'));
    expect(new URL(done.headers.location!).searchParams.get('code')).toMatch(/^tsr_code_/);
  });

  it('a login whose tenant switches SSO off meanwhile is refused back to the client, and audited', async () => {
    const { authorization } = await startLogin();
    const callbackUrl = await authorizeAtIdp(authorization, 'erin');
    await setActive(false);
    try {
      const res = await http.request('GET', callbackUrl);
      expect(ssoErrorOf(res, BACK)).toMatch(/switched off/);
    } finally {
      await setActive(true);
    }
    expect((await loginFailures()).map((e) => e.payload.reason)).toContain('sso_inactive');
  });

  it('a SAML answer to an OIDC login is refused back to the client', async () => {
    const { state } = await startLogin();
    const res = await http.request('POST', callbackOf(), {
      rawBody: new URLSearchParams({ SAMLResponse: Buffer.from('<samlp:Response/>').toString('base64'), RelayState: state }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(ssoErrorOf(res, BACK)).toMatch(/not valid; start the login again/);
    expect((await loginFailures()).filter((e) => e.payload.reason === 'invalid_response' && e.payload.provider_type === 'oidc').length).toBeGreaterThan(0);
  });

  it('the SSO code of a user disabled before the exchange signs nobody in', async () => {
    const done = await http.request('GET', await authorizeAtIdp((await startLogin()).authorization, 'erin'));
    const code = new URL(done.headers.location!).searchParams.get('code')!;
    expect(code).toMatch(/^tsr_code_/);
    const users = (await http.request('GET', '/v1/users?limit=100', { token: adminToken })).body as { users: { id: string; email: string }[] };
    const erin = users.users.find((u) => u.email === `erin@${tenant.domain}`)!;
    const disabled = await http.request('POST', `/v1/users/${erin.id}/disable`, { token: adminToken });
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
    const exchanged = await http.request('POST', '/v1/auth/token', { body: { grant_type: 'sso_code', code } });
    expect(exchanged.status, JSON.stringify(exchanged.body)).toBe(401);
    expect(exchanged.body).toMatchObject({ code: 'unauthenticated', detail: 'The SSO code is not valid' });
    const malformed = await http.request('POST', '/v1/auth/token', { body: { grant_type: 'sso_code', code: 'tsr_code_not-a-real-code' } });
    expect(malformed.status, JSON.stringify(malformed.body)).toBe(401);
    expect(malformed.body).toMatchObject({ code: 'unauthenticated', detail: 'The SSO code is not valid' });
    expect((await identityAuditEvents(host.deps, tenant.tenantId)).filter((e) => e.action === 'login_succeeded' && e.actor_id === erin.id)).toHaveLength(0);
  });

  it('an IdP that stops answering before the code exchange sends the client temporarily_unavailable, not access_denied', async () => {
    const callbackUrl = await authorizeAtIdp((await startLogin()).authorization, 'erin');
    await idp.close(); // the last test of this file to need the IdP
    const res = await http.request('GET', callbackUrl);
    expect(res.status, res.text).toBe(302);
    const url = new URL(res.headers.location!);
    expect(`${url.origin}${url.pathname}`).toBe(BACK);
    expect(url.searchParams.get('error'), url.href).toBe('temporarily_unavailable');
    expect(url.searchParams.get('code')).toBeNull();
  });
});
