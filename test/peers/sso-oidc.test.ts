/**
 * OIDC single sign-on against a real OpenID Provider (oidc-provider on loopback), driven over
 * HTTP as a browser would: start → authorize at the IdP → callback → code exchange → /v1/me.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listIdentityAuditEvents } from '../../shared/audit/audit-log';
import { verifyAccessToken } from '../../shared/identity/access-tokens';
import { Browser } from '../support/browser';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startOidcProvider, type LocalOidcProvider } from '../../infra/local/stand-ins/openid-provider';
import { readOutbox } from '../support/outbox';
import { ssoErrorOf } from '../support/sso-answers';
import { startTestHost, type TestHost } from '../support/test-host';

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
let adminToken: string;
let idp: LocalOidcProvider;
const CLIENT_SECRET = 'oidc-client-secret-for-tessera-7d1c';
const BACK = 'https://console.example.com/sso/done';

beforeAll(async () => {
  host = await startTestHost({ clock });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
  const callback = `${host.url}/v1/auth/sso/${tenant.slug}/callback`;
  const accounts: Record<string, { email: string; email_verified?: boolean | string | null }> = {
    alice: { email: `alice@${tenant.domain}` },
    bob: { email: `bob@${tenant.domain}` },
    mallory: { email: tenant.admin.email },
    dave: { email: 'dave@elsewhere.example' },
    unverified: { email: `unverified@${tenant.domain}`, email_verified: false },
    // Not verified either: the string some IdPs send, and no claim at all (null: left out).
    unverifiedString: { email: `unverified-string@${tenant.domain}`, email_verified: 'false' },
    unverifiedMissing: { email: `unverified-missing@${tenant.domain}`, email_verified: null },
    overlong: { email: `${'x'.repeat(300)}@${tenant.domain}` },
  };
  for (let i = 0; i < 6; i++) accounts[`p${i}`] = { email: `p${i}@${tenant.domain}` };
  idp = await startOidcProvider({
    clients: [
      { client_id: 'tessera', client_secret: CLIENT_SECRET, redirect_uris: [callback] },
      { client_id: 'other-app', client_secret: 'other-secret-0000000000', redirect_uris: [callback] },
    ],
    accounts,
  });
  const res = await http.request('POST', `/v1/tenants/${tenant.tenantId}/idp`, {
    token: adminToken,
    body: { provider_type: 'oidc', issuer: idp.issuer, client_id: 'tessera', client_secret: CLIENT_SECRET, email_domains: [tenant.domain], allowed_redirect_uris: [BACK], default_role: 'connector_builder', active: true },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
});
afterAll(async () => {
  await idp?.close();
  await host?.close();
});

async function startLogin(): Promise<URL> {
  const res = await http.request('GET', `/v1/auth/sso/${tenant.slug}/start?redirect_uri=${encodeURIComponent(BACK)}`);
  expect(res.status, res.text).toBe(302);
  return new URL(res.headers.location!);
}

/** Signs `account` in at the IdP and returns the URL the IdP sends the browser back to. */
async function authorizeAtIdp(authorizationUrl: URL, account: string, browser = new Browser()): Promise<string> {
  const auth = await browser.get(authorizationUrl.href);
  expect(auth.location, auth.text).toMatch(/\/interaction\//);
  const pending = await browser.get(auth.location!);
  expect(JSON.parse(pending.text)).toMatchObject({ prompt: 'login' });
  const submitted = await browser.postForm(auth.location!, { login: account, amr: 'pwd otp', acr: 'urn:test:loa:2' });
  expect(submitted.location, submitted.text).toBeDefined();
  const resumed = await browser.get(submitted.location!);
  expect(resumed.location, resumed.text).toContain(`/v1/auth/sso/${tenant.slug}/callback`);
  return resumed.location!;
}

async function callback(url: string) {
  return http.request('GET', url);
}

function codeOf(location: string | undefined): string {
  expect(location).toBeDefined();
  const url = new URL(location!);
  expect(`${url.origin}${url.pathname}`).toBe(BACK);
  return url.searchParams.get('code')!;
}

async function exchange(code: string) {
  return http.request('POST', '/v1/auth/token', { body: { grant_type: 'sso_code', code } });
}

describe('OIDC single sign-on', () => {
  it('discovery routes the claimed domain to SSO; an unclaimed domain is 404', async () => {
    const res = await http.request('GET', `/v1/auth/discover?email=${encodeURIComponent(`Someone@${tenant.domain.toUpperCase()}`)}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ tenant: tenant.slug, methods: ['sso'], sso: { provider_type: 'oidc', start_url: `${host.url}/v1/auth/sso/${tenant.slug}/start` } });
    expect((await http.request('GET', '/v1/auth/discover?email=nobody@unclaimed.example')).status).toBe(404);
    expect((await http.request('GET', '/v1/auth/discover?email=not-an-email')).status).toBe(400);
    expect((await http.request('GET', `/v1/auth/discover?email=a@${tenant.domain}&extra=1`)).status).toBe(400);
  });

  it('start redirects to the IdP with PKCE S256, state and nonce; the redirect URI must be allowed', async () => {
    const url = await startLogin();
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.get('client_id')).toBe('tessera');
    expect(url.searchParams.get('redirect_uri')).toBe(`${host.url}/v1/auth/sso/${tenant.slug}/callback`);

    const foreign = await http.request('GET', `/v1/auth/sso/${tenant.slug}/start?redirect_uri=${encodeURIComponent('https://evil.example/steal')}`);
    expect(foreign.status).toBe(400);
    expect(foreign.headers.location).toBeUndefined();
    expect((await http.request('GET', `/v1/auth/sso/no-such-tenant/start?redirect_uri=${encodeURIComponent(BACK)}`)).status).toBe(404);
  });

  it('signs a new user in end to end: JIT with the default role, IdP amr in the token, acr/amr on the login event', async () => {
    const back = await callback(await authorizeAtIdp(await startLogin(), 'alice'));
    expect(back.status, back.text).toBe(302);
    const code = codeOf(back.headers.location);
    expect(code).toMatch(/^tsr_code_/);

    const tokens = await exchange(code);
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    const body = tokens.body as { access_token: string; refresh_token: string; tenant_id: string; workspace_id: string };
    expect(body).toMatchObject({ token_type: 'Bearer', tenant_id: tenant.tenantId, workspace_id: tenant.workspaceId });
    expect(body.refresh_token).toMatch(/^tsr_rt_/);

    const me = await http.request('GET', '/v1/me', { token: body.access_token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: `alice@${tenant.domain}`, role: 'connector_builder', tenant_admin: false, mfa_enrolled: false });

    const claims = await verifyAccessToken(host.deps, body.access_token);
    expect(claims.amr).toEqual(['pwd', 'otp']);
    expect(claims.mfaAt).toBe(claims.authTime);

    const events = await listIdentityAuditEvents(host.deps, tenant.tenantId, { limit: 100 });
    const userId = (me.body as { id: string }).id;
    expect(events.items.find((e) => e.action === 'user_provisioned' && e.target_id === userId)).toBeDefined();
    expect(events.items.find((e) => e.action === 'login_succeeded' && e.target_id === userId)).toMatchObject({
      payload: { method: 'sso', provider_type: 'oidc', idp_issuer: idp.issuer, amr: ['pwd', 'otp'], acr: 'urn:test:loa:2', jit_provisioned: true },
    });
    expect(JSON.stringify(events.items)).not.toContain(CLIENT_SECRET);

    // The code is single-use.
    expect((await exchange(code)).status).toBe(401);

    // An SSO user signs in at the IdP only: no reset link that would give a local password.
    const outbox = (await readOutbox(host.config.outboxDir)).length;
    expect((await http.request('POST', '/v1/auth/password/forgot', { body: { email: `alice@${tenant.domain}` } })).status).toBe(202);
    expect(await readOutbox(host.config.outboxDir)).toHaveLength(outbox);

    // A second login links to the same user, no second provisioning.
    const again = await exchange(codeOf((await callback(await authorizeAtIdp(await startLogin(), 'alice'))).headers.location));
    const meAgain = await http.request('GET', '/v1/me', { token: (again.body as { access_token: string }).access_token });
    expect((meAgain.body as { id: string }).id).toBe(userId);
  });

  it('accepts the same answer as a form POST (response_mode=form_post)', async () => {
    const returned = new URL(await authorizeAtIdp(await startLogin(), 'alice'));
    const res = await http.request('POST', `${returned.origin}${returned.pathname}`, {
      rawBody: returned.searchParams.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status, res.text).toBe(302);
    expect((await exchange(codeOf(res.headers.location))).status).toBe(200);
  });

  it('refuses a wrong state, and a replayed state', async () => {
    const returned = new URL(await authorizeAtIdp(await startLogin(), 'alice'));
    const wrong = new URL(returned);
    wrong.searchParams.set('state', randomBytes(32).toString('base64url'));
    // No login in flight has that state: there is no known client to send the browser back to.
    const refused = await callback(wrong.href);
    expect(refused.status).toBe(401);
    expect(refused.headers.location).toBeUndefined();

    const first = await callback(returned.href);
    expect(first.status).toBe(302);
    const replay = await callback(returned.href);
    expect(replay.status).toBe(401);
    expect(replay.body).toMatchObject({ code: 'unauthenticated' });
  });

  it('refuses an ID token whose nonce is not the one of the login', async () => {
    const url = await startLogin();
    url.searchParams.set('nonce', 'a-nonce-the-attacker-chose');
    const res = await callback(await authorizeAtIdp(url, 'alice'));
    expect(ssoErrorOf(res, BACK)).toMatch(/not valid/);
  });

  it('refuses an ID token for another audience, and one from another issuer', async () => {
    try {
      idp.mutateIdToken = (claims) => ({ ...claims, aud: 'other-app' });
      ssoErrorOf(await callback(await authorizeAtIdp(await startLogin(), 'alice')), BACK);
      idp.mutateIdToken = (claims) => ({ ...claims, iss: 'http://127.0.0.1:9/other-issuer' });
      ssoErrorOf(await callback(await authorizeAtIdp(await startLogin(), 'alice')), BACK);
      // Sanity: the re-signing itself is accepted when nothing changes.
      idp.mutateIdToken = (claims) => claims;
      expect((await callback(await authorizeAtIdp(await startLogin(), 'alice'))).status).toBe(302);
    } finally {
      idp.mutateIdToken = undefined;
    }
  });

  it('binds the code to the client that began the login: its state comes back, its PKCE verifier is required', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const clientState = 'console-state-1234';
    const start = await http.request('GET', `/v1/auth/sso/${tenant.slug}/start?redirect_uri=${encodeURIComponent(BACK)}&state=${clientState}&code_challenge=${challenge}&code_challenge_method=S256`);
    expect(start.status, start.text).toBe(302);
    const back = await callback(await authorizeAtIdp(new URL(start.headers.location!), 'alice'));
    expect(back.status, back.text).toBe(302);
    expect(new URL(back.headers.location!).searchParams.get('state')).toBe(clientState);
    const code = codeOf(back.headers.location);

    // Without the verifier, or with another one, the code is worth nothing (and stays unused).
    expect((await exchange(code)).status).toBe(401);
    const other = await http.request('POST', '/v1/auth/token', { body: { grant_type: 'sso_code', code, code_verifier: randomBytes(32).toString('base64url') } });
    expect(other.status).toBe(401);
    const right = await http.request('POST', '/v1/auth/token', { body: { grant_type: 'sso_code', code, code_verifier: verifier } });
    expect(right.status, JSON.stringify(right.body)).toBe(200);

    // Malformed client parameters are refused before anything is stored.
    for (const query of ['state=has%20space', 'code_challenge=short', `code_challenge=${challenge}&code_challenge_method=plain`, 'code_challenge_method=S256']) {
      const res = await http.request('GET', `/v1/auth/sso/${tenant.slug}/start?redirect_uri=${encodeURIComponent(BACK)}&${query}`);
      expect(res.status, query).toBe(400);
    }
    // Without a state of its own, the final redirect carries none.
    const plain = await callback(await authorizeAtIdp(await startLogin(), 'alice'));
    expect(new URL(plain.headers.location!).searchParams.has('state')).toBe(false);
  });

  it('sends a refusal by the IdP back to the application with error, error_description and its state, and audits it', async () => {
    const start = await http.request('GET', `/v1/auth/sso/${tenant.slug}/start?redirect_uri=${encodeURIComponent(BACK)}&state=app-state-9`);
    const ourState = new URL(start.headers.location!).searchParams.get('state')!;
    const res = await callback(`/v1/auth/sso/${tenant.slug}/callback?error=access_denied&error_description=User+cancelled&state=${ourState}`);
    expect(ssoErrorOf(res, BACK)).toBe('The identity provider did not sign you in (access_denied)');
    expect(new URL(res.headers.location!).searchParams.get('state')).toBe('app-state-9');
    const events = await listIdentityAuditEvents(host.deps, tenant.tenantId, { limit: 100 });
    expect(events.items.find((e) => e.action === 'login_failed' && (e.payload as { reason?: string }).reason === 'idp_refused')).toMatchObject({
      payload: { method: 'sso', provider_type: 'oidc', detail: 'The identity provider did not sign you in (access_denied)' },
    });
  });

  it('refuses a code exchanged after 60 seconds', async () => {
    const code = codeOf((await callback(await authorizeAtIdp(await startLogin(), 'alice'))).headers.location);
    clock.advance(61);
    expect((await exchange(code)).status).toBe(401);
  });

  it('never links to an existing local user by email, never provisions outside the claimed domains or with an unverified email', async () => {
    // Each refusal goes back to the application, saying why in words it can show.
    const collision = await callback(await authorizeAtIdp(await startLogin(), 'mallory'));
    expect(ssoErrorOf(collision, BACK)).toMatch(/account with this email already exists/);
    const outside = await callback(await authorizeAtIdp(await startLogin(), 'dave'));
    expect(ssoErrorOf(outside, BACK)).toMatch(/email domain is not routed/);
    for (const account of ['unverified', 'unverifiedString', 'unverifiedMissing', 'overlong']) {
      const refused = await callback(await authorizeAtIdp(await startLogin(), account));
      expect(ssoErrorOf(refused, BACK), account).toMatch(/email domain is not routed/);
    }
    const users = await http.request('GET', '/v1/users?limit=100', { token: adminToken });
    expect(JSON.stringify(users.body)).not.toMatch(/unverified|xxxxxxxx/);
    const events = await listIdentityAuditEvents(host.deps, tenant.tenantId, { limit: 100 });
    expect(events.items.filter((e) => e.action === 'login_failed' && (e.payload as { method?: string }).method === 'sso').map((e) => (e.payload as { reason: string }).reason))
      .toEqual(expect.arrayContaining(['email_in_use', 'domain_not_routed']));
  });

  it('refuses a disabled user', async () => {
    const tokens = await exchange(codeOf((await callback(await authorizeAtIdp(await startLogin(), 'bob'))).headers.location));
    const me = await http.request('GET', '/v1/me', { token: (tokens.body as { access_token: string }).access_token });
    const bobId = (me.body as { id: string }).id;
    expect((await http.request('POST', `/v1/users/${bobId}/disable`, { token: adminToken })).status).toBe(200);
    const res = await callback(await authorizeAtIdp(await startLogin(), 'bob'));
    expect(ssoErrorOf(res, BACK)).toBe('This account is disabled');
  });

  it('provisions exactly one user when the first logins of one subject run in parallel', async () => {
    const returns = await Promise.all(Array.from({ length: 5 }, async () => authorizeAtIdp(await startLogin(), 'p0')));
    const backs = await Promise.all(returns.map((url) => callback(url)));
    expect(backs.map((b) => b.status)).toEqual([302, 302, 302, 302, 302]);
    const ids = new Set<string>();
    for (const back of backs) {
      const tokens = await exchange(codeOf(back.headers.location));
      const me = await http.request('GET', '/v1/me', { token: (tokens.body as { access_token: string }).access_token });
      ids.add((me.body as { id: string }).id);
    }
    expect(ids.size).toBe(1);
    const users = await http.request('GET', '/v1/users?limit=100', { token: adminToken });
    expect((users.body as { users: { email: string }[] }).users.filter((u) => u.email === `p0@${tenant.domain}`)).toHaveLength(1);
    const events = await listIdentityAuditEvents(host.deps, tenant.tenantId, { limit: 100 });
    expect(events.items.filter((e) => e.action === 'user_provisioned' && (e.payload as { email: string }).email === `p0@${tenant.domain}`)).toHaveLength(1);
  });
});
