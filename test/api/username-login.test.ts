/**
 * Username login ("email or username plus password"): an optional username per user, unique
 * in the tenant (case-insensitive), set on create or PATCH, shown in the user view, accepted by
 * login and forgot-password (with the tenant slug) wherever an email is.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as Passwords from '../../shared/crypto/passwords';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, identityAuditEvents, login, PASSWORD, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { readOutbox } from '../support/outbox';
import { startTestHost, type TestHost } from '../support/test-host';

/** Counts the Argon2id verifications the handlers (in this process) make: real or against the dummy hash. */
const verifications = vi.hoisted(() => ({ real: 0, dummy: 0 }));
vi.mock('../../shared/crypto/passwords', async (importOriginal) => {
  const original = await importOriginal<typeof Passwords>();
  return {
    ...original,
    verifyPassword: async (...args: Parameters<typeof original.verifyPassword>) => {
      verifications.real++;
      return original.verifyPassword(...args);
    },
    burnPasswordVerification: async (...args: Parameters<typeof original.burnPasswordVerification>) => {
      verifications.dummy++;
      return original.burnPasswordVerification(...args);
    },
  };
});

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
let adminToken: string;

beforeAll(async () => {
  host = await startTestHost({ clock });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
});
afterAll(async () => {
  await host?.close();
});

let counter = 0;
async function newUser(username: string | undefined): Promise<{ id: string; email: string; body: Record<string, unknown> }> {
  const email = `user${++counter}-${Date.now()}@${tenant.domain}`;
  const res = await http.request('POST', '/v1/users', { token: adminToken, body: { email, password: PASSWORD, role: 'viewer', ...(username !== undefined ? { username } : {}) } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const body = res.body as Record<string, unknown>;
  return { id: body.id as string, email, body };
}

const loginBy = (body: Record<string, unknown>) => http.request('POST', '/v1/auth/login', { body });
const withoutRequestId = (body: unknown) => Object.fromEntries(Object.entries(body as Record<string, unknown>).filter(([name]) => name !== 'request_id'));

describe('username login', () => {
  it('creates a user with a username (shown lower-cased in the user view) who signs in with it', async () => {
    const user = await newUser('Grace.Hopper');
    expect(user.body.username).toBe('grace.hopper');
    const read = await http.request('GET', `/v1/users/${user.id}`, { token: adminToken });
    expect(read.body).toMatchObject({ id: user.id, username: 'grace.hopper' });
    const plain = await newUser(undefined);
    expect(plain.body.username).toBeNull();

    const res = await loginBy({ tenant: tenant.slug, username: 'GRACE.hopper', password: PASSWORD });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const me = await http.request('GET', '/v1/me', { token: (res.body as { access_token: string }).access_token });
    expect(me.body).toMatchObject({ id: user.id, email: user.email });
    const created = (await identityAuditEvents(host.deps, tenant.tenantId)).find((e) => e.action === 'user_created' && e.target_id === user.id);
    expect(created?.payload).toMatchObject({ username: 'grace.hopper' });
  });

  it('answers a wrong password and an unknown username exactly as an unknown email', async () => {
    await newUser('ada');
    const answers = await Promise.all([
      loginBy({ tenant: tenant.slug, username: 'ada', password: 'wrong password!!' }),
      loginBy({ tenant: tenant.slug, username: 'nobody-here', password: PASSWORD }),
      loginBy({ tenant: 'no-such-tenant', username: 'ada', password: PASSWORD }),
      loginBy({ tenant: tenant.slug, email: `nobody@${tenant.domain}`, password: PASSWORD }),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(withoutRequestId(res.body)).toEqual(withoutRequestId(answers[3].body));
    }
    // The same work either way: one Argon2id verification, against the user's hash or the dummy one.
    for (const [body, kind] of [
      [{ tenant: tenant.slug, username: 'ada', password: 'wrong password!!' }, 'real'],
      [{ tenant: tenant.slug, username: 'nobody-here', password: PASSWORD }, 'dummy'],
      [{ tenant: 'no-such-tenant', username: 'ada', password: PASSWORD }, 'dummy'],
    ] as const) {
      const before = { ...verifications };
      expect((await loginBy(body)).status).toBe(401);
      expect({ real: verifications.real - before.real, dummy: verifications.dummy - before.dummy }).toEqual(kind === 'real' ? { real: 1, dummy: 0 } : { real: 0, dummy: 1 });
    }
    const reasons = (await identityAuditEvents(host.deps, tenant.tenantId)).filter((e) => e.action === 'login_failed').map((e) => (e.payload as { reason: string }).reason);
    expect(reasons).toEqual(expect.arrayContaining(['wrong_password', 'unknown_user']));
  });

  it('keeps usernames unique in the tenant, whatever the case; a refused write changes nothing', async () => {
    const first = await newUser('linus');
    const dup = await http.request('POST', '/v1/users', { token: adminToken, body: { email: `other-linus@${tenant.domain}`, password: PASSWORD, role: 'viewer', username: 'LINUS' } });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: 'conflict', detail: expect.stringMatching(/username/) });
    // Nothing was written: the email of the refused user is still free.
    const emailFree = await http.request('POST', '/v1/users', { token: adminToken, body: { email: `other-linus@${tenant.domain}`, password: PASSWORD, role: 'viewer' } });
    expect(emailFree.status).toBe(201);

    const second = await newUser('margaret');
    const patched = await http.request('PATCH', `/v1/users/${second.id}`, { token: adminToken, body: { username: 'Linus' } });
    expect(patched.status).toBe(409);
    expect((await http.request('GET', `/v1/users/${second.id}`, { token: adminToken })).body).toMatchObject({ username: 'margaret' });
    // The login still finds the first owner.
    const res = await loginBy({ tenant: tenant.slug, username: 'linus', password: PASSWORD });
    const me = await http.request('GET', '/v1/me', { token: (res.body as { access_token: string }).access_token });
    expect((me.body as { id: string }).id).toBe(first.id);
  });

  it('renames and clears a username: the old one stops working and is free again', async () => {
    const user = await newUser('barbara');
    const renamed = await http.request('PATCH', `/v1/users/${user.id}`, { token: adminToken, body: { username: 'liskov' } });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body).toMatchObject({ username: 'liskov' });
    expect((await loginBy({ tenant: tenant.slug, username: 'barbara', password: PASSWORD })).status).toBe(401);
    expect((await loginBy({ tenant: tenant.slug, username: 'liskov', password: PASSWORD })).status).toBe(200);
    await newUser('barbara');

    const cleared = await http.request('PATCH', `/v1/users/${user.id}`, { token: adminToken, body: { username: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ username: null });
    expect((await loginBy({ tenant: tenant.slug, username: 'liskov', password: PASSWORD })).status).toBe(401);
    await newUser('liskov');
    const updated = (await identityAuditEvents(host.deps, tenant.tenantId)).filter((e) => e.action === 'user_updated' && e.target_id === user.id);
    expect(updated.map((e) => (e.payload as { changed: string[] }).changed)).toEqual([['username'], ['username']]);
  });

  it('refuses a username that looks like an email, or has other characters; nothing is written', async () => {
    for (const username of ['someone@example.com', 'a b', 'x', 'é-accent', '-leading', 'a'.repeat(65), 'nul\u0000x']) {
      const email = `refused-${counter++}@${tenant.domain}`;
      const res = await http.request('POST', '/v1/users', { token: adminToken, body: { email, password: PASSWORD, role: 'viewer', username } });
      expect(res.status, username).toBe(400);
      expect(res.body, username).toMatchObject({ code: 'validation_failed', errors: expect.arrayContaining([expect.objectContaining({ path: 'username' })]) });
      expect((await http.request('POST', '/v1/users', { token: adminToken, body: { email, password: PASSWORD, role: 'viewer' } })).status).toBe(201);
    }
    const user = await newUser(undefined);
    expect((await http.request('PATCH', `/v1/users/${user.id}`, { token: adminToken, body: { username: 'me@example.com' } })).status).toBe(400);
  });

  it('needs the tenant with a username, and one of email or username', async () => {
    await newUser('katherine');
    const noTenant = await loginBy({ username: 'katherine', password: PASSWORD });
    expect(noTenant.status).toBe(400);
    expect(noTenant.body).toMatchObject({ code: 'validation_failed', errors: [expect.objectContaining({ path: 'tenant' })] });
    expect((await loginBy({ tenant: tenant.slug, password: PASSWORD })).status).toBe(400);
    expect((await loginBy({ tenant: tenant.slug, username: 'katherine', email: tenant.admin.email, password: PASSWORD })).status).toBe(400);
    expect((await loginBy({ tenant: tenant.slug, username: 'x@y.example', password: PASSWORD })).status).toBe(400);
  });

  it('mails a reset link for a username to the user\'s email; an unknown username gets the same 202 and no mail', async () => {
    const user = await newUser('dorothy');
    const before = (await readOutbox(host.config.outboxDir)).length;
    const res = await http.request('POST', '/v1/auth/password/forgot', { body: { tenant: tenant.slug, username: 'Dorothy' } });
    expect(res.status).toBe(202);
    const after = await readOutbox(host.config.outboxDir);
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)!.headers.to).toBe(user.email);

    const unknown = await http.request('POST', '/v1/auth/password/forgot', { body: { tenant: tenant.slug, username: 'no-such-user' } });
    expect(unknown.status).toBe(202);
    expect(await readOutbox(host.config.outboxDir)).toHaveLength(before + 1);
    expect((await http.request('POST', '/v1/auth/password/forgot', { body: { username: 'dorothy' } })).status).toBe(400);
  });
});
