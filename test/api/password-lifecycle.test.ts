/**
 * Password lifecycle over HTTP: forgot → email (read from the .eml outbox) → reset, the
 * change-password endpoint, and the password rules on every path that sets one.
 */
import { rm, writeFile } from 'node:fs/promises';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../shared/crypto/opaque-tokens';
import { keys } from '../../shared/store/keys';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, identityAuditEvents, login, PASSWORD, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { readOutbox, resetTokenOf, type OutboxMessage } from '../support/outbox';
import { startTestHost, type TestHost } from '../support/test-host';

const NEW_PASSWORD = 'a brand new passphrase for spring';
const ACCOUNT_LIMIT = 4;
const RESPONSE_FLOOR_MS = 150;

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
let adminToken: string;
let userCount = 0;

beforeAll(async () => {
  host = await startTestHost({
    clock,
    env: { TESSERA_RATE_LOGIN_ACCOUNT_FAILURES: String(ACCOUNT_LIMIT), TESSERA_RATE_LOGIN_ACCOUNT_IP_FAILURES: String(ACCOUNT_LIMIT), TESSERA_PASSWORD_RESET_RESPONSE_FLOOR_MS: String(RESPONSE_FLOOR_MS) },
  });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
});
afterAll(() => host?.close());

async function newUser(): Promise<{ id: string; email: string }> {
  const email = `user${++userCount}@${tenant.domain}`;
  adminToken = (await login(http, clock, tenant.admin.email)).accessToken; // the clock moves in this file
  const id = await createUser(http, adminToken, { email, role: 'viewer' });
  return { id, email };
}

/** Asks for a reset and returns the one email it sent. */
async function forgot(email: string, extra: Record<string, unknown> = {}): Promise<OutboxMessage> {
  const before = (await readOutbox(host.config.outboxDir)).length;
  const res = await http.request('POST', '/v1/auth/password/forgot', { body: { email, ...extra } });
  expect(res.status).toBe(202);
  const after = await readOutbox(host.config.outboxDir);
  expect(after).toHaveLength(before + 1);
  return after.at(-1)!;
}

const reset = (token: string, newPassword = NEW_PASSWORD, sourceIp?: string) =>
  http.request('POST', '/v1/auth/password/reset', { body: { token, new_password: newPassword }, headers: { 'x-forwarded-for': sourceIp } });
const passwordLogin = (email: string, password: string) => http.request('POST', '/v1/auth/login', { body: { email, password } });

describe('forgot password', () => {
  it('answers 202 and writes one RFC 5322 email with a single reset link to the account', async () => {
    const user = await newUser();
    const message = await forgot(user.email);
    expect(message.headers.to).toBe(user.email);
    expect(message.headers.from).toContain('@');
    expect(message.headers.subject).toMatch(/reset/i);
    expect(Number.isNaN(Date.parse(message.headers.date!))).toBe(false);
    expect(message.headers['message-id']).toMatch(/^<[^<>@\s]+@[^<>\s]+>$/);
    expect(message.headers['mime-version']).toBe('1.0');
    expect(message.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(message.raw).not.toMatch(/[^\r]\n/); // CRLF line ends only
    expect(message.body).toContain(`${host.url}/reset-password?token=`);
    expect(message.body).toMatch(/30 minutes/);
    const token = resetTokenOf(message);
    expect(token).toMatch(/^tsr_reset_[0-9A-Za-z]{43}$/);

    // Stored as its digest only: the item is found by the hash and no item holds the token.
    expect(await host.deps.table.get(keys.passwordResetToken(sha256Hex(token)))).toBeDefined();
    const scan = await host.documents.send(new ScanCommand({ TableName: host.config.tableName }));
    expect(JSON.stringify(scan.Items)).not.toContain(token);

    const events = await identityAuditEvents(host.deps, tenant.tenantId);
    expect(events.some((e) => e.action === 'password_reset_requested' && e.target_id === user.id)).toBe(true);
    expect(JSON.stringify(events)).not.toContain(token);
  });

  it('answers the same 202 for an unknown email, an unknown tenant and a disabled user, and mails nothing', async () => {
    const disabled = await newUser();
    expect((await http.request('POST', `/v1/users/${disabled.id}/disable`, { token: adminToken })).status).toBe(200);
    const before = (await readOutbox(host.config.outboxDir)).length;
    for (const body of [{ email: `nobody@${tenant.domain}` }, { email: 'someone@unclaimed.example' }, { tenant: 'no-such-tenant', email: `user1@${tenant.domain}` }, { email: disabled.email }]) {
      const res = await http.request('POST', '/v1/auth/password/forgot', { body });
      expect(res.status).toBe(202);
      expect(res.text).toBe('');
    }
    expect(await readOutbox(host.config.outboxDir)).toHaveLength(before);
  });

  it(`answers no sooner than the floor (${RESPONSE_FLOOR_MS} ms here), account or not`, async () => {
    const user = await newUser();
    for (const email of [user.email, `nobody@${tenant.domain}`, 'x@unclaimed.example']) {
      const started = performance.now();
      expect((await http.request('POST', '/v1/auth/password/forgot', { body: { email } })).status).toBe(202);
      expect(performance.now() - started).toBeGreaterThanOrEqual(RESPONSE_FLOOR_MS - 5);
    }
  });

  it('answers the same 202 when the email cannot be sent (no 5xx that only existing accounts would get)', async () => {
    const user = await newUser();
    const outbox = host.config.outboxDir;
    await rm(outbox, { recursive: true, force: true });
    await writeFile(outbox, 'not a folder'); // every write into the outbox now fails
    try {
      const res = await http.request('POST', '/v1/auth/password/forgot', { body: { email: user.email } });
      expect(res.status).toBe(202);
    } finally {
      await rm(outbox, { force: true });
    }
  });

  it('routes by explicit tenant slug too', async () => {
    const user = await newUser();
    const message = await forgot(user.email.toUpperCase(), { tenant: tenant.slug });
    expect(message.headers.to).toBe(user.email);
  });

  it(`mails at most ${ACCOUNT_LIMIT} links per account and window, and still answers 202`, async () => {
    const user = await newUser();
    const before = (await readOutbox(host.config.outboxDir)).length;
    const answers = await Promise.all(Array.from({ length: ACCOUNT_LIMIT + 4 }, () => http.request('POST', '/v1/auth/password/forgot', { body: { email: user.email } })));
    expect(answers.map((a) => a.status)).toEqual(Array(ACCOUNT_LIMIT + 4).fill(202));
    expect(await readOutbox(host.config.outboxDir)).toHaveLength(before + ACCOUNT_LIMIT);
    clock.advance(host.config.rateLimits.windowSeconds);
  });

  it('refuses malformed bodies with problem+json and mails nothing', async () => {
    const before = (await readOutbox(host.config.outboxDir)).length;
    const bad = [
      await http.request('POST', '/v1/auth/password/forgot', { rawBody: '{"email":', headers: { 'content-type': 'application/json' } }),
      await http.request('POST', '/v1/auth/password/forgot', { body: { email: 'not-an-email' } }),
      await http.request('POST', '/v1/auth/password/forgot', { body: { email: `user1@${tenant.domain}`, admin: true } }),
      await http.request('POST', '/v1/auth/password/forgot', { body: {} }),
    ];
    expect(bad.map((r) => r.status)).toEqual([400, 400, 400, 400]);
    for (const r of bad) expect(r.headers['content-type']).toContain('application/problem+json');
    expect(await readOutbox(host.config.outboxDir)).toHaveLength(before);
  });
});

describe('reset password', () => {
  it('sets the password, revokes every refresh token of the user, and works once', async () => {
    const user = await newUser();
    const sessionA = await login(http, clock, user.email);
    const sessionB = await login(http, clock, user.email);
    clock.advance(1); // sign-in times are whole seconds: a sign-in in the reset's own second stays valid
    const token = resetTokenOf(await forgot(user.email));

    const done = await reset(token);
    expect(done.status).toBe(204);
    expect((await passwordLogin(user.email, PASSWORD)).status).toBe(401);
    const after = await passwordLogin(user.email, NEW_PASSWORD);
    expect(after.status).toBe(200);
    expect((await http.request('GET', '/v1/me', { token: (after.body as { access_token: string }).access_token })).status).toBe(200);
    for (const session of [sessionA, sessionB]) {
      // The access tokens of those sign-ins die too, not only their refresh tokens.
      expect((await http.request('GET', '/v1/me', { token: session.accessToken })).status).toBe(401);
      const refreshed = await http.request('POST', '/v1/auth/token', { body: { grant_type: 'refresh_token', refresh_token: session.refreshToken } });
      expect(refreshed.status).toBe(401);
    }

    const again = await reset(token, 'yet another passphrase here');
    expect(again.status).toBe(401);
    expect(again.body).toMatchObject({ code: 'unauthenticated' });
    expect((await passwordLogin(user.email, NEW_PASSWORD)).status).toBe(200);
    expect(await host.deps.table.get(keys.passwordResetToken(sha256Hex(token)))).toBeUndefined();

    const events = await identityAuditEvents(host.deps, tenant.tenantId);
    expect(events.some((e) => e.action === 'password_reset' && e.target_id === user.id)).toBe(true);
  });

  it('a reset or a password change ends every link sent before it', async () => {
    const user = await newUser();
    const first = resetTokenOf(await forgot(user.email));
    const second = resetTokenOf(await forgot(user.email));
    expect((await reset(first)).status).toBe(204);
    const stale = await reset(second, 'a passphrase from an old link');
    expect(stale.status).toBe(401);
    expect(stale.body).toMatchObject({ code: 'unauthenticated' });
    expect((await passwordLogin(user.email, NEW_PASSWORD)).status).toBe(200);

    clock.advance(1);
    const beforeChange = resetTokenOf(await forgot(user.email));
    const session = await login(http, clock, user.email, NEW_PASSWORD);
    const changed = await http.request('POST', '/v1/me/password', { token: session.accessToken, body: { current_password: NEW_PASSWORD, new_password: 'the passphrase after the change' } });
    expect(changed.status).toBe(204);
    expect((await reset(beforeChange, 'a passphrase from before the change')).status).toBe(401);
    // A link asked for afterwards works.
    clock.advance(1);
    expect((await reset(resetTokenOf(await forgot(user.email)), 'a passphrase from a new link')).status).toBe(204);
    expect((await passwordLogin(user.email, 'a passphrase from a new link')).status).toBe(200);
  });

  it('is single use under parallel requests: exactly one 204', async () => {
    const user = await newUser();
    const token = resetTokenOf(await forgot(user.email));
    // From six addresses, so that the per-address failure limit is not what refuses them.
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => reset(token, `parallel passphrase number ${i}`, `198.51.100.${i + 1}`)));
    expect(answers.filter((a) => a.status === 204)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 401)).toHaveLength(5);
    const winner = answers.findIndex((a) => a.status === 204);
    expect((await passwordLogin(user.email, `parallel passphrase number ${winner}`)).status).toBe(200);
  });

  it('expires 30 minutes after the request (injected clock)', async () => {
    const user = await newUser();
    const inTime = resetTokenOf(await forgot(user.email));
    clock.advance(29 * 60);
    expect((await reset(inTime)).status).toBe(204);
    clock.advance(1);
    const late = resetTokenOf(await forgot(user.email)); // sent after that reset: only its age can end it
    clock.advance(31 * 60);
    const expired = await reset(late, 'too late for this passphrase');
    expect(expired.status).toBe(401);
    expect((await passwordLogin(user.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('refuses a common, a short or a too long new password and keeps the token usable', async () => {
    const user = await newUser();
    const token = resetTokenOf(await forgot(user.email));
    for (const weak of ['1qaz2wsx3edc4rfv', 'short pass', 'x'.repeat(129)]) {
      const res = await reset(token, weak);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation_failed', errors: [{ path: 'new_password' }] });
    }
    expect((await reset(token)).status).toBe(204);
  });

  it('refuses made-up, malformed and other-kind tokens the same way', async () => {
    const user = await newUser();
    const session = await login(http, clock, user.email);
    for (const token of ['tsr_reset_' + 'A'.repeat(43), 'tsr_reset_short', session.refreshToken]) {
      const res = await reset(token);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'unauthenticated' });
    }
    const unknownField = await http.request('POST', '/v1/auth/password/reset', { body: { token: 'x', new_password: NEW_PASSWORD, email: user.email } });
    expect(unknownField.status).toBe(400);
  });

  it(`refuses an address after ${ACCOUNT_LIMIT} wrong tokens, even with a right one`, async () => {
    const user = await newUser();
    const token = resetTokenOf(await forgot(user.email));
    const ip = '203.0.113.77';
    for (let i = 0; i < ACCOUNT_LIMIT; i++) expect((await reset(`tsr_reset_${String(i).repeat(43)}`, NEW_PASSWORD, ip)).status).toBe(401);
    expect((await reset(token, NEW_PASSWORD, ip)).status).toBe(429);
    expect((await reset(token, NEW_PASSWORD, '203.0.113.78')).status).toBe(204);
  });
});

describe('change password (POST /v1/me/password)', () => {
  it('needs the current password; the new one then works and the old one does not', async () => {
    const user = await newUser();
    const { accessToken } = await login(http, clock, user.email);
    const wrong = await http.request('POST', '/v1/me/password', { token: accessToken, body: { current_password: 'not my password at all', new_password: NEW_PASSWORD } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: 'invalid_credentials' });
    const common = await http.request('POST', '/v1/me/password', { token: accessToken, body: { current_password: PASSWORD, new_password: '1234567890qwerty' } });
    expect(common.status).toBe(400);
    expect(common.body).toMatchObject({ code: 'validation_failed', errors: [{ path: 'new_password' }] });
    expect((await passwordLogin(user.email, PASSWORD)).status).toBe(200);

    const changed = await http.request('POST', '/v1/me/password', { token: accessToken, body: { current_password: PASSWORD, new_password: NEW_PASSWORD } });
    expect(changed.status).toBe(204);
    expect((await passwordLogin(user.email, PASSWORD)).status).toBe(401);
    expect((await passwordLogin(user.email, NEW_PASSWORD)).status).toBe(200);
    const events = await identityAuditEvents(host.deps, tenant.tenantId);
    const mine = events.filter((e) => e.target_id === user.id).map((e) => e.action);
    expect(mine).toEqual(expect.arrayContaining(['password_change_failed', 'password_changed']));
    expect(JSON.stringify(events)).not.toContain(NEW_PASSWORD);
  });

  it(`locks the account after ${ACCOUNT_LIMIT} wrong current passwords, like login`, async () => {
    const user = await newUser();
    const { accessToken } = await login(http, clock, user.email);
    const answers = await Promise.all(
      Array.from({ length: ACCOUNT_LIMIT + 3 }, () => http.request('POST', '/v1/me/password', { token: accessToken, body: { current_password: 'wrong wrong wrong', new_password: NEW_PASSWORD } })),
    );
    expect(answers.filter((a) => a.status === 401)).toHaveLength(ACCOUNT_LIMIT);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(3);
    const right = await http.request('POST', '/v1/me/password', { token: accessToken, body: { current_password: PASSWORD, new_password: NEW_PASSWORD } });
    expect(right.status).toBe(429);
    clock.advance(host.config.rateLimits.windowSeconds);
  });

  it('refuses without a credential, and with a disabled user\'s token', async () => {
    const body = { current_password: PASSWORD, new_password: NEW_PASSWORD };
    expect((await http.request('POST', '/v1/me/password', { body })).status).toBe(401);
    const user = await newUser();
    const { accessToken } = await login(http, clock, user.email);
    expect((await http.request('POST', `/v1/users/${user.id}/disable`, { token: adminToken })).status).toBe(200);
    expect((await http.request('POST', '/v1/me/password', { token: accessToken, body })).status).toBe(401);
  });
});

describe('the password rules on every path that sets one', () => {
  it('refuses a common password when an admin creates a user', async () => {
    adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
    const res = await http.request('POST', '/v1/users', { token: adminToken, body: { email: `common@${tenant.domain}`, role: 'viewer', password: 'passwordpassword' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', errors: [{ path: 'password' }] });
  });
});
