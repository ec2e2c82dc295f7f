import * as argon2 from '@node-rs/argon2';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { totpCode } from '../../shared/crypto/totp';
import { verifyEmailDomainAsOperator } from '../../shared/identity/email-domains';
import { keys } from '../../shared/store/keys';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, login, PASSWORD, totpSecrets, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

// Every Argon2 verification the host makes (it runs in this process) is counted: the limiter's
// point is to stop spending them, and a 429 answered after a verification would still pass a
// test that only counts answers.
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const original = await importOriginal<typeof argon2>();
  return { ...original, verify: vi.fn(original.verify) };
});
const verifications = () => vi.mocked(argon2.verify).mock.calls.length;

const ACCOUNT_LIMIT = 4;
let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let open: TestTenant; // MFA OFF
let strict: TestTenant; // default policy: REQUIRED, all actions

beforeAll(async () => {
  host = await startTestHost({ clock, env: { TESSERA_RATE_LOGIN_ACCOUNT_FAILURES: String(ACCOUNT_LIMIT), TESSERA_RATE_LOGIN_ACCOUNT_IP_FAILURES: String(ACCOUNT_LIMIT) } });
  http = api(host.url);
  open = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  strict = await createTestTenant(host.deps);
});
afterAll(() => host?.close());

describe('POST /v1/auth/login', () => {
  it('issues a token response when the policy asks no MFA, routing by email domain', async () => {
    const res = await http.request('POST', '/v1/auth/login', { body: { email: open.admin.email, password: PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 900, tenant_id: open.tenantId, workspace_id: open.workspaceId });
    const body = res.body as { access_token: string; refresh_token: string };
    expect(body.refresh_token).toMatch(/^tsr_rt_/);
    const me = await http.request('GET', '/v1/me', { token: body.access_token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: open.admin.id, email: open.admin.email, tenant_id: open.tenantId, workspace_id: open.workspaceId, role: 'admin', status: 'active', mfa_enrolled: false });
  });

  it('logs in by explicit tenant slug, and the email is case-insensitive', async () => {
    const res = await http.request('POST', '/v1/auth/login', { body: { tenant: open.slug, email: open.admin.email.toUpperCase(), password: PASSWORD } });
    expect(res.status).toBe(200);
  });

  it('answers the same 401 for a wrong password, an unknown email, an unknown tenant and a disabled user', async () => {
    const adminToken = (await login(http, clock, open.admin.email)).accessToken;
    const disabledEmail = `gone@${open.domain}`;
    const disabledId = await createUser(http, adminToken, { email: disabledEmail, role: 'viewer' });
    expect((await http.request('POST', `/v1/users/${disabledId}/disable`, { token: adminToken })).status).toBe(200);

    const attempts = [
      { email: `nobody@${open.domain}`, password: PASSWORD },
      { email: `admin@unknown-${open.domain}`, password: PASSWORD },
      { tenant: 'no-such-tenant', email: open.admin.email, password: PASSWORD },
      { email: disabledEmail, password: PASSWORD },
      { email: open.admin.email, password: 'wrong password!!' },
    ];
    for (const body of attempts) {
      const res = await http.request('POST', '/v1/auth/login', { body, headers: { 'x-forwarded-for': `10.9.${attempts.indexOf(body)}.1` } });
      expect(res.status, JSON.stringify(body)).toBe(401);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.body).toMatchObject({ code: 'invalid_credentials', status: 401, detail: 'The email or password is incorrect' });
    }
  });

  it('refuses malformed JSON, unknown fields, wrong types and oversized bodies before anything else', async () => {
    const malformed = await http.request('POST', '/v1/auth/login', { rawBody: '{"email": "a@b.c", ', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 'malformed_json' });

    const unknown = await http.request('POST', '/v1/auth/login', { body: { email: open.admin.email, password: PASSWORD, admin: true } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'validation_failed', errors: [{ path: 'admin', message: 'is not an allowed field' }] });

    const wrongType = await http.request('POST', '/v1/auth/login', { body: { email: 42, password: PASSWORD } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body).toMatchObject({ code: 'validation_failed' });

    const huge = await http.request('POST', '/v1/auth/login', { body: { email: open.admin.email, password: 'x'.repeat(70 * 1024) } });
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ code: 'payload_too_large' });
  });

  it('a domain that moves to another tenant routes sign-ins there at once, though this process followed its old pointer before', async () => {
    const first = await createTestTenant(host.deps, { mfaMode: 'OFF' });
    const adminToken = (await login(http, clock, first.admin.email)).accessToken;
    expect((await http.request('DELETE', `/v1/tenants/${first.tenantId}/domains/${first.domain}`, { token: adminToken })).status).toBe(204);

    const second = await createTestTenant(host.deps, { mfaMode: 'OFF' });
    await verifyEmailDomainAsOperator(host.deps, second.tenantId, first.domain);
    const secondAdmin = (await login(http, clock, second.admin.email)).accessToken;
    const movedEmail = `moved@${first.domain}`;
    await createUser(http, secondAdmin, { email: movedEmail, role: 'viewer' });
    // The process still holds the pointer to the first tenant that its last sign-in followed.
    const res = await http.request('POST', '/v1/auth/login', { body: { email: movedEmail, password: PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tenant_id: second.tenantId });
    expect((await http.request('POST', '/v1/auth/login', { body: { email: first.admin.email, password: PASSWORD } })).status).toBe(401);
  });

  it('refuses a workspace the user is not a member of', async () => {
    const adminToken = (await login(http, clock, open.admin.email)).accessToken;
    const other = await http.request('POST', '/v1/workspaces', { token: adminToken, body: { name: 'Other' } });
    expect(other.status).toBe(201);
    const viewerEmail = `viewer@${open.domain}`;
    await createUser(http, adminToken, { email: viewerEmail, role: 'viewer' });
    const res = await http.request('POST', '/v1/auth/login', { body: { email: viewerEmail, password: PASSWORD, workspace_id: (other.body as { id: string }).id } });
    expect(res.status).toBe(403);
  });
});

describe('the user a sign-in found, held for the next one', () => {
  /** The table calls a login makes, counted on the host's client (the host runs in this process). */
  async function tableCallsOf(body: Record<string, string>, ip: string): Promise<{ status: number; calls: string[] }> {
    const call = vi.spyOn(host.deps.db, 'call');
    try {
      const res = await http.request('POST', '/v1/auth/login', { body, headers: { 'x-forwarded-for': ip } });
      return { status: res.status, calls: call.mock.calls.map(([operation]) => `${operation}Command`) };
    } finally {
      call.mockRestore();
    }
  }

  const userIdOf = async (accessToken: string) => ((await http.request('GET', '/v1/me', { token: accessToken })).body as { id: string }).id;

  it('a returning user is read with the pointer that confirms it: one round trip fewer than the first time, as many as an unknown email', async () => {
    const adminToken = (await login(http, clock, open.admin.email)).accessToken;
    const email = `returning-${Math.random().toString(36).slice(2, 8)}@${open.domain}`;
    await createUser(http, adminToken, { email, role: 'viewer' });

    const first = await tableCallsOf({ email, password: PASSWORD }, '10.7.0.1');
    const again = await tableCallsOf({ email, password: PASSWORD }, '10.7.0.2');
    const unknown = await tableCallsOf({ email: `nobody-${Math.random().toString(36).slice(2, 8)}@${open.domain}`, password: PASSWORD }, '10.7.0.3');
    expect([first.status, again.status, unknown.status]).toEqual([200, 200, 401]);
    expect(first.calls.filter((name) => name === 'GetItemCommand')).toHaveLength(1);
    expect(again.calls).not.toContain('GetItemCommand');
    expect(again.calls).toHaveLength(first.calls.length - 1);
    expect(again.calls).toHaveLength(unknown.calls.length);
  });

  it('an email that moves to another user signs that user in, though this process holds the first user for it', async () => {
    const adminToken = (await login(http, clock, open.admin.email)).accessToken;
    const email = `moving-${Math.random().toString(36).slice(2, 8)}@${open.domain}`;
    const firstId = await createUser(http, adminToken, { email, role: 'viewer' });
    expect(await userIdOf((await login(http, clock, email)).accessToken)).toBe(firstId);

    const renamed = `renamed-${Math.random().toString(36).slice(2, 8)}@${open.domain}`;
    expect((await http.request('PATCH', `/v1/users/${firstId}`, { token: adminToken, body: { email: renamed } })).status).toBe(200);
    const secondId = await createUser(http, adminToken, { email, role: 'viewer' });
    expect(await userIdOf((await login(http, clock, email)).accessToken)).toBe(secondId);
    expect(await userIdOf((await login(http, clock, renamed)).accessToken)).toBe(firstId);
  });

  it('a held user who is disabled, or whose email is taken away, is refused with the same 401', async () => {
    const adminToken = (await login(http, clock, open.admin.email)).accessToken;
    const disabled = `held-disabled-${Math.random().toString(36).slice(2, 8)}@${open.domain}`;
    const disabledId = await createUser(http, adminToken, { email: disabled, role: 'viewer' });
    const moved = `held-moved-${Math.random().toString(36).slice(2, 8)}@${open.domain}`;
    const movedId = await createUser(http, adminToken, { email: moved, role: 'viewer' });
    await login(http, clock, disabled);
    await login(http, clock, moved);

    expect((await http.request('POST', `/v1/users/${disabledId}/disable`, { token: adminToken })).status).toBe(200);
    expect((await http.request('PATCH', `/v1/users/${movedId}`, { token: adminToken, body: { email: `elsewhere-${Math.random().toString(36).slice(2, 8)}@${open.domain}` } })).status).toBe(200);
    for (const email of [disabled, moved]) {
      const res = await http.request('POST', '/v1/auth/login', { body: { email, password: PASSWORD } });
      expect(res.status, email).toBe(401);
      expect(res.body).toMatchObject({ code: 'invalid_credentials' });
    }
  });
});

describe('MFA at login (default policy: REQUIRED with all actions)', () => {
  it('makes a new user enroll TOTP, then challenges at the next login', async () => {
    const first = await http.request('POST', '/v1/auth/login', { body: { email: strict.admin.email, password: PASSWORD } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ mfa_required: true, enrollment_required: true });
    expect(first.body).not.toHaveProperty('access_token');
    const mfaToken = (first.body as { mfa_token: string }).mfa_token;

    // The mfa_token is no bearer credential.
    expect((await http.request('GET', '/v1/me', { token: mfaToken })).status).toBe(401);

    const start = await http.request('POST', '/v1/mfa/enroll/start', { body: { mfa_token: mfaToken } });
    expect(start.status).toBe(200);
    const { secret, otpauth_uri, qr_code } = start.body as { secret: string; otpauth_uri: string; qr_code: string };
    expect(otpauth_uri).toMatch(/^otpauth:\/\/totp\/Tessera:/);
    expect(otpauth_uri).toContain(`secret=${secret}`);
    expect(qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(qr_code.split(',')[1]!, 'base64').toString()).toContain('<svg');

    // The secret is stored encrypted, never in plaintext.
    const stored = await host.deps.table.get<Record<string, unknown>>(keys.totpCredential(strict.tenantId, strict.admin.id));
    expect(JSON.stringify(stored)).not.toContain(secret);

    const wrong = await http.request('POST', '/v1/mfa/enroll/confirm', { body: { mfa_token: mfaToken, code: '000000' === (await totpCode(secret, clock.epochSeconds())) ? '111111' : '000000' } });
    expect(wrong.status).toBe(401);

    const confirm = await http.request('POST', '/v1/mfa/enroll/confirm', { body: { mfa_token: mfaToken, code: await totpCode(secret, clock.epochSeconds()) } });
    expect(confirm.status).toBe(200);
    const confirmed = confirm.body as { backup_codes: string[]; access_token: string };
    expect(confirmed.backup_codes).toHaveLength(10);
    expect(new Set(confirmed.backup_codes).size).toBe(10);
    const me = await http.request('GET', '/v1/me', { token: confirmed.access_token });
    expect(me.body).toMatchObject({ mfa_enrolled: true });
    totpSecrets.set(strict.admin.email, secret);

    // The transaction was consumed with the login.
    expect((await http.request('POST', '/v1/mfa/enroll/confirm', { body: { mfa_token: mfaToken, code: await totpCode(secret, clock.epochSeconds() + 30) } })).status).toBe(401);
    clock.advance(30);

    const second = await http.request('POST', '/v1/auth/login', { body: { email: strict.admin.email, password: PASSWORD } });
    expect(second.body).toMatchObject({ mfa_required: true, enrollment_required: false });
    const token2 = (second.body as { mfa_token: string }).mfa_token;
    expect((await http.request('POST', '/v1/mfa/enroll/start', { body: { mfa_token: token2 } })).status).toBe(403);
    const challenge = await http.request('POST', '/v1/mfa/challenge', { body: { mfa_token: token2, code: await totpCode(secret, clock.epochSeconds()) } });
    expect(challenge.status).toBe(200);
    const claims = JSON.parse(Buffer.from((challenge.body as { access_token: string }).access_token.split('.')[1]!, 'base64url').toString()) as { amr: string[]; mfa_at: number };
    expect(claims.amr).toEqual(['pwd', 'otp']);
    expect(claims.mfa_at).toBeGreaterThan(0);

    // A backup code completes a login once.
    clock.advance(30);
    const third = await http.request('POST', '/v1/auth/login', { body: { email: strict.admin.email, password: PASSWORD } });
    const token3 = (third.body as { mfa_token: string }).mfa_token;
    const viaBackup = await http.request('POST', '/v1/mfa/challenge', { body: { mfa_token: token3, backup_code: confirmed.backup_codes[0] } });
    expect(viaBackup.status).toBe(200);
    const fourth = await http.request('POST', '/v1/auth/login', { body: { email: strict.admin.email, password: PASSWORD } });
    const reused = await http.request('POST', '/v1/mfa/challenge', { body: { mfa_token: (fourth.body as { mfa_token: string }).mfa_token, backup_code: confirmed.backup_codes[0] } });
    expect(reused.status).toBe(401);
  });

  it('an expired mfa_token is refused', async () => {
    const email = `late@${strict.domain}`;
    const adminToken = (await login(http, clock, strict.admin.email)).accessToken;
    await createUser(http, adminToken, { email, role: 'viewer' });
    const res = await http.request('POST', '/v1/auth/login', { body: { email, password: PASSWORD } });
    clock.advance(301);
    const start = await http.request('POST', '/v1/mfa/enroll/start', { body: { mfa_token: (res.body as { mfa_token: string }).mfa_token } });
    expect(start.status).toBe(401);
  });
});

describe('login rate limits', () => {
  it(`20 parallel wrong logins against a limit of ${ACCOUNT_LIMIT} verify exactly ${ACCOUNT_LIMIT} passwords (Argon2 calls counted)`, async () => {
    const adminToken = (await login(http, clock, open.admin.email)).accessToken;
    const email = `target@${open.domain}`;
    await createUser(http, adminToken, { email, role: 'viewer' });
    const before = verifications();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => http.request('POST', '/v1/auth/login', { body: { email, password: 'not the password' } })),
    );
    const statuses = results.map((r) => r.status);
    // The limit's slots are taken atomically: exactly that many attempts are verified (401),
    // everything past the limit is refused before any Argon2 work.
    expect(verifications() - before).toBe(ACCOUNT_LIMIT);
    expect(statuses.filter((s) => s === 401).length).toBe(ACCOUNT_LIMIT);
    expect(statuses.filter((s) => s === 429).length).toBe(20 - ACCOUNT_LIMIT);
    const limited = results.find((r) => r.status === 429)!;
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.body).toMatchObject({ code: 'rate_limited' });

    // While limited, even the right password is refused, with the same answer.
    const limitedFrom = verifications();
    const right = await http.request('POST', '/v1/auth/login', { body: { email, password: PASSWORD } });
    expect(right.status).toBe(429);
    const wrongAgain = await http.request('POST', '/v1/auth/login', { body: { email, password: 'still not it' } });
    expect(wrongAgain.status).toBe(429);
    expect(verifications(), 'no verification while limited').toBe(limitedFrom);

    // The window passes.
    clock.advance(Number(limited.headers['retry-after']) + 1);
    expect((await http.request('POST', '/v1/auth/login', { body: { email, password: PASSWORD } })).status).toBe(200);
    expect(verifications()).toBe(limitedFrom + 1);
  });

  it('a successful login gives its slot back, so a user who types right is never locked out', async () => {
    for (let i = 0; i < ACCOUNT_LIMIT + 2; i++) {
      expect((await http.request('POST', '/v1/auth/login', { body: { email: open.admin.email, password: PASSWORD } })).status).toBe(200);
    }
  });

  it('so does a right password whose login stops at the MFA step, or at a workspace it may not use', async () => {
    for (let i = 0; i < ACCOUNT_LIMIT + 2; i++) {
      const res = await http.request('POST', '/v1/auth/login', { body: { email: strict.admin.email, password: PASSWORD } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ mfa_required: true });
    }
    const adminToken = (await login(http, clock, open.admin.email)).accessToken;
    const other = await http.request('POST', '/v1/workspaces', { token: adminToken, body: { name: 'Elsewhere' } });
    const memberEmail = `member@${open.domain}`;
    await createUser(http, adminToken, { email: memberEmail, role: 'viewer' });
    for (let i = 0; i < ACCOUNT_LIMIT + 2; i++) {
      expect((await http.request('POST', '/v1/auth/login', { body: { email: memberEmail, password: PASSWORD, workspace_id: (other.body as { id: string }).id } })).status).toBe(403);
    }
  });
});

describe('per (account, source IP) failure limit', () => {
  it('refuses an address that used its share of an account\'s failures, while others keep theirs until the account\'s are gone', async () => {
    const pairHost = await startTestHost({ clock, env: { TESSERA_RATE_LOGIN_ACCOUNT_FAILURES: '5', TESSERA_RATE_LOGIN_ACCOUNT_IP_FAILURES: '2' } });
    try {
      const client = api(pairHost.url);
      const tenant = await createTestTenant(pairHost.deps, { mfaMode: 'OFF' });
      const from = async (ip: string, password: string) => (await client.request('POST', '/v1/auth/login', { body: { email: tenant.admin.email, password }, headers: { 'x-forwarded-for': ip } })).status;
      const wrong = 'not the password';
      const before = verifications();
      expect([await from('198.51.100.1', wrong), await from('198.51.100.1', wrong), await from('198.51.100.1', wrong)]).toEqual([401, 401, 429]);
      expect(await from('198.51.100.1', PASSWORD), 'the right password, from the address that used its share').toBe(429);
      expect(await from('198.51.100.2', wrong)).toBe(401);
      expect(await from('198.51.100.3', PASSWORD), 'the right password from another address, which gives its slot back').toBe(200);
      expect([await from('198.51.100.2', wrong), await from('198.51.100.2', wrong)]).toEqual([401, 429]);
      expect(await from('198.51.100.4', wrong), 'the fifth failure of the account').toBe(401);
      // The account's failures are used up; an address without failures still gets one try
      // (owner-lockout.test below), after which it is held like the others.
      expect([await from('198.51.100.5', wrong), await from('198.51.100.5', PASSWORD)], 'past the account\'s limit, an address that failed once').toEqual([401, 429]);
      expect(await from('198.51.100.4', PASSWORD), 'the right password from an address that failed in the window').toBe(429);
      expect(verifications() - before, 'a refused attempt verifies nothing').toBe(7);
    } finally {
      await pairHost.close();
    }
  });
});

describe('failures from other addresses never lock the owner out', () => {
  it('a right password from an address without failures passes the account\'s limit, up to 10 × it', async () => {
    const ownerHost = await startTestHost({ clock, env: { TESSERA_RATE_LOGIN_ACCOUNT_FAILURES: '3', TESSERA_RATE_LOGIN_ACCOUNT_IP_FAILURES: '2' } });
    try {
      const client = api(ownerHost.url);
      const tenant = await createTestTenant(ownerHost.deps, { mfaMode: 'OFF' });
      const attempt = (ip: string, password: string) => client.request('POST', '/v1/auth/login', { body: { email: tenant.admin.email, password }, headers: { 'x-forwarded-for': ip } });
      const from = async (ip: string, password: string) => (await attempt(ip, password)).status;
      const wrong = 'not the password';
      // Two attacking addresses use up the account's three failures (the finding: admins locked out).
      expect([await from('198.51.100.1', wrong), await from('198.51.100.1', wrong), await from('198.51.100.1', wrong)]).toEqual([401, 401, 429]);
      expect([await from('198.51.100.2', wrong), await from('198.51.100.2', wrong)]).toEqual([401, 429]);
      expect(await from('198.51.100.2', PASSWORD), 'an address that failed in the window is held at the account\'s limit').toBe(429);
      // The owner, from an address of their own, signs in, and again: each success gives its slot back.
      for (let i = 0; i < 3; i++) expect(await from('203.0.113.50', PASSWORD), `the owner's sign-in #${i + 1}`).toBe(200);
      // Past the account's limit, each fresh address gets one try, until 10 × 3 failures in all.
      const before = verifications();
      for (let i = 3; i < 30; i++) expect(await from(`192.0.2.${i}`, wrong), `failure #${i + 1} of the account, from a fresh address`).toBe(401);
      expect(verifications() - before).toBe(27);
      const refused = await attempt('192.0.2.200', PASSWORD);
      expect(refused.status, 'past 10 × the limit, even the right password from a fresh address').toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(await from('203.0.113.50', PASSWORD), 'and the owner\'s own address').toBe(429);
      expect(verifications() - before, 'a refused attempt verifies nothing').toBe(27);
      // A new window starts afresh.
      clock.advance(ownerHost.config.rateLimits.windowSeconds);
      expect(await from('203.0.113.50', PASSWORD)).toBe(200);
    } finally {
      await ownerHost.close();
    }
  });
});

describe('per-address limits count an IPv6 address by its /64', () => {
  it('addresses of one /64 share the (account, address) failures, another /64 has its own; an IPv4-mapped address is the IPv4 one', async () => {
    const v6Host = await startTestHost({ clock, env: { TESSERA_RATE_LOGIN_ACCOUNT_FAILURES: '20', TESSERA_RATE_LOGIN_ACCOUNT_IP_FAILURES: '2' } });
    try {
      const client = api(v6Host.url);
      const tenant = await createTestTenant(v6Host.deps, { mfaMode: 'OFF' });
      const from = async (ip: string) => (await client.request('POST', '/v1/auth/login', { body: { email: tenant.admin.email, password: 'not the password' }, headers: { 'x-forwarded-for': ip } })).status;
      expect([await from('2001:db8:1:2::1'), await from('2001:db8:1:2:aaaa::2'), await from('2001:db8:1:2:ffff:ffff:ffff:fffe')]).toEqual([401, 401, 429]);
      expect(await from('2001:db8:1:3::1'), 'the next /64').toBe(401);
      expect([await from('198.51.100.9'), await from('::ffff:198.51.100.9')]).toEqual([401, 401]);
      expect(await from('198.51.100.9'), 'the mapped address counted as the IPv4 one').toBe(429);
    } finally {
      await v6Host.close();
    }
  });

  it('so does the per-address request budget of the authentication and MFA surface', async () => {
    const small = await startTestHost({ clock, env: { TESSERA_RATE_AUTH_IP_REQUESTS: '3' } });
    try {
      const client = api(small.url);
      const statuses = [];
      for (const ip of ['2001:db8:7:8::1', '2001:db8:7:8::2', '2001:db8:7:8:1::1', '2001:db8:7:8:ffff::9']) {
        statuses.push((await client.request('POST', '/v1/auth/login', { body: { email: 'x@y.test', password: 'whatever-password' }, headers: { 'x-forwarded-for': ip } })).status);
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
      const mfa = await client.request('POST', '/v1/mfa/challenge', { body: { mfa_token: 'x', code: '123456' }, headers: { 'x-forwarded-for': '2001:db8:7:8::77' } });
      expect(mfa.status, 'the MFA routes share the budget').toBe(429);
      expect((await client.request('POST', '/v1/auth/login', { body: { email: 'x@y.test', password: 'whatever-password' }, headers: { 'x-forwarded-for': '2001:db8:7:9::1' } })).status, 'another /64').toBe(401);
    } finally {
      await small.close();
    }
  });
});

describe('per source IP limit of the authentication surface', () => {
  it('refuses an address past its request budget and not another', async () => {
    const small = await startTestHost({ clock, env: { TESSERA_RATE_AUTH_IP_REQUESTS: '3' } });
    try {
      const client = api(small.url);
      const ask = (ip: string) => client.request('POST', '/v1/auth/login', { body: { email: 'x@y.test', password: 'whatever-password' }, headers: { 'x-forwarded-for': ip } });
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await ask('203.0.113.7')).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      expect((await ask('203.0.113.8')).status).toBe(401);
    } finally {
      await small.close();
    }
  });
});
