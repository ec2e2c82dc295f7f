/**
 * An SSO user has no password to prove they own the account with, so binding their first
 * authenticator from a session needs a sign-in at the IdP no older than 10 minutes (issue 25,
 * finding 1: a stolen 15-minute SSO access token must not become permanent step-up power).
 * Against a real OpenID Provider (oidc-provider on loopback), whose `auth_time` is its own
 * sign-in time; Tessera's clock only moves forward from it, so the fresh case runs first.
 * SSO sessions are the IdP's to hold to MFA: under REQUIRED they still refresh.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../shared/crypto/opaque-tokens';
import { totpCode } from '../../shared/crypto/totp';
import { keys } from '../../shared/store/keys';
import type { RefreshTokenRecord } from '../../shared/store/records';
import { Browser } from '../support/browser';
import { api, type HttpClient, type HttpResponse } from '../support/http-client';
import { createTestTenant, identityAuditEvents, login, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startOidcProvider, type LocalOidcProvider } from '../../infra/local/stand-ins/openid-provider';
import { startTestHost, type TestHost } from '../support/test-host';

const STALE = 11 * 60; // past the 10-minute window, within the 15-minute access token life
const CLIENT_SECRET = 'oidc-client-secret-for-mfa-ownership';
const BACK = 'https://console.example.com/sso/done';

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
/** The default policy: REQUIRED with all seven actions. */
let tenant: TestTenant;
let idp: LocalOidcProvider;

beforeAll(async () => {
  host = await startTestHost({ clock });
  http = api(host.url);
  tenant = await createTestTenant(host.deps);
  idp = await startOidcProvider({
    clients: [{ client_id: 'tessera', client_secret: CLIENT_SECRET, redirect_uris: [`${host.url}/v1/auth/sso/${tenant.slug}/callback`] }],
    accounts: { fresh: { email: `fresh@${tenant.domain}` }, stolen: { email: `stolen@${tenant.domain}` } },
  });
  const admin = await login(http, clock, tenant.admin.email); // enrolls: a fresh MFA for the IdP configuration
  const res = await http.request('POST', `/v1/tenants/${tenant.tenantId}/idp`, {
    token: admin.accessToken,
    body: { provider_type: 'oidc', issuer: idp.issuer, client_id: 'tessera', client_secret: CLIENT_SECRET, email_domains: [tenant.domain], allowed_redirect_uris: [BACK], default_role: 'viewer', active: true },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
});
afterAll(async () => {
  await idp?.close();
  await host?.close();
});

function expectProblem(res: HttpResponse, status: number, code: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ code });
}

/** A sign-in at the IdP with a password alone (amr pwd: no second factor there), to Tessera's tokens. */
async function ssoSignIn(account: string): Promise<{ access_token: string; refresh_token: string }> {
  const start = await http.request('GET', `/v1/auth/sso/${tenant.slug}/start?redirect_uri=${encodeURIComponent(BACK)}`);
  expect(start.status, start.text).toBe(302);
  const browser = new Browser();
  const auth = await browser.get(start.headers.location!);
  const submitted = await browser.postForm(auth.location!, { login: account, amr: 'pwd' });
  const resumed = await browser.get(submitted.location!);
  const back = await http.request('GET', resumed.location!);
  expect(back.status, back.text).toBe(302);
  const code = new URL(back.headers.location!).searchParams.get('code');
  expect(code, back.headers.location).toBeTruthy();
  const tokens = await http.request('POST', '/v1/auth/token', { body: { grant_type: 'sso_code', code } });
  expect(tokens.status, tokens.text).toBe(200);
  return tokens.body as { access_token: string; refresh_token: string };
}

const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as { sub: string; amr: string[]; auth_time: number; mfa_at?: number };
const enrollStart = (token: string, body?: Record<string, unknown>) => http.request('POST', '/v1/mfa/enroll/start', { token, ...(body ? { body } : {}) });

describe('an SSO user enrolling their first authenticator from a session', () => {
  it('just signed in at the IdP: enrolls without a password', async () => {
    const tokens = await ssoSignIn('fresh');
    expect(claimsOf(tokens.access_token).mfa_at).toBeUndefined(); // the IdP asserted no second factor
    const started = await enrollStart(tokens.access_token);
    expect(started.status, started.text).toBe(200);
    const secret = (started.body as { secret: string }).secret;
    const confirmed = await http.request('POST', '/v1/mfa/enroll/confirm', { token: tokens.access_token, body: { code: await totpCode(secret, clock.epochSeconds()) } });
    expect(confirmed.status, confirmed.text).toBe(200);
    clock.advance(30);
  });

  it('a stolen access token whose IdP sign-in is older than 10 minutes cannot, with no password either; refreshing does not make it fresh', async () => {
    const tokens = await ssoSignIn('stolen');
    const userId = claimsOf(tokens.access_token).sub;
    clock.advance(STALE);
    // The token still works for what needs no fresh sign-in.
    expect((await http.request('GET', '/v1/me', { token: tokens.access_token })).status).toBe(200);

    const stale = await enrollStart(tokens.access_token);
    expectProblem(stale, 401, 'mfa_required');
    expect(stale.headers['www-authenticate']).toMatch(/insufficient_user_authentication/);
    expect(stale.body).toMatchObject({ detail: expect.stringMatching(/identity provider/) });
    expect(stale.body).not.toHaveProperty('secret');
    // An SSO user has no password: guessing one is a wrong password (audited), never a way in.
    expectProblem(await enrollStart(tokens.access_token, { current_password: 'any password at all' }), 401, 'invalid_credentials');
    expect(await host.deps.table.get(keys.totpCredential(tenant.tenantId, userId))).toBeUndefined();
    const failures = (await identityAuditEvents(host.deps, tenant.tenantId)).filter((e) => e.action === 'mfa_enrollment_failed' && e.target_id === userId);
    expect(failures).toHaveLength(1);

    // The SSO session goes on under REQUIRED (its MFA is the IdP's), marked as federated ...
    const record = await host.deps.table.get<RefreshTokenRecord>(keys.refreshToken(sha256Hex(tokens.refresh_token)));
    expect(record).toMatchObject({ federated: true, mfa_at: null });
    const refreshed = await http.request('POST', '/v1/auth/token', { body: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token } });
    expect(refreshed.status, refreshed.text).toBe(200);
    // ... but keeps its sign-in time: the new access token is no fresher.
    const next = (refreshed.body as { access_token: string }).access_token;
    expect(claimsOf(next).auth_time).toBe(claimsOf(tokens.access_token).auth_time);
    expectProblem(await enrollStart(next), 401, 'mfa_required');
    expect(await host.deps.table.get(keys.totpCredential(tenant.tenantId, userId))).toBeUndefined();
  });
});
