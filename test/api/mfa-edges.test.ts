/**
 * MFA at its edges: the mfa_token sent as the bearer, a login's token used for the wrong step,
 * enrollment confirmed twice or overtaken by a parallel confirmation, a challenge answered by a
 * user without TOTP, and the mfa_token of a user disabled meanwhile.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { totpCode } from '../../shared/crypto/totp';
import { keys } from '../../shared/store/keys';
import type { TotpCredentialRecord } from '../../shared/store/records';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, identityAuditEvents, login, PASSWORD, type Session, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
/** The default policy: MFA required at login and for every action. */
let strict: TestTenant;
/** MFA off: nobody is asked, nobody has enrolled. */
let relaxed: TestTenant;
let users = 0;

beforeAll(async () => {
  host = await startTestHost({ clock });
  http = api(host.url);
  strict = await createTestTenant(host.deps);
  relaxed = await createTestTenant(host.deps, { mfaMode: 'OFF' });
});
afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(async () => {
  await host?.close();
});

/** A new enrolled user of the strict tenant and its session. */
async function enrolledUser(): Promise<Session & { email: string; id: string }> {
  const admin = await login(http, clock, strict.admin.email);
  const email = `user${++users}@${strict.domain}`;
  const id = await createUser(http, admin.accessToken, { email, role: 'viewer' });
  return { ...(await login(http, clock, email)), email, id };
}

/** A password login of an enrolled user, stopped at its MFA challenge. */
async function mfaTokenOf(email: string): Promise<string> {
  const res = await http.request('POST', '/v1/auth/login', { body: { email, password: PASSWORD } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({ mfa_required: true, enrollment_required: false });
  return (res.body as { mfa_token: string }).mfa_token;
}

async function currentCode(secret: string): Promise<string> {
  const code = await totpCode(secret, clock.epochSeconds());
  clock.advance(30);
  return code;
}

describe('MFA at its edges', () => {
  it('the mfa_token may be the bearer of the challenge instead of a body field', async () => {
    const user = await enrolledUser();
    const mfaToken = await mfaTokenOf(user.email);
    const res = await http.request('POST', '/v1/mfa/challenge', { headers: { authorization: `Bearer ${mfaToken}` }, body: { code: await currentCode(user.totpSecret!) } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String) });
    const me = await http.request('GET', '/v1/me', { token: (res.body as { access_token: string }).access_token });
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    expect(me.body).toMatchObject({ id: user.id });
  });

  it('a login waiting for its challenge cannot enroll again instead', async () => {
    const user = await enrolledUser();
    const mfaToken = await mfaTokenOf(user.email);
    const before = await host.deps.table.get<TotpCredentialRecord>(keys.totpCredential(strict.tenantId, user.id));
    const start = await http.request('POST', '/v1/mfa/enroll/start', { body: { mfa_token: mfaToken } });
    expect(start.status, JSON.stringify(start.body)).toBe(403);
    expect(start.body).toMatchObject({ code: 'forbidden', detail: expect.stringMatching(/Answer the MFA challenge instead/) });
    const confirm = await http.request('POST', '/v1/mfa/enroll/confirm', { body: { mfa_token: mfaToken, code: await currentCode(user.totpSecret!) } });
    expect(confirm.status, JSON.stringify(confirm.body)).toBe(403);
    expect(confirm.body).toMatchObject({ code: 'forbidden', detail: expect.stringMatching(/Answer the MFA challenge instead/) });
    expect(await host.deps.table.get(keys.totpCredential(strict.tenantId, user.id))).toEqual(before);
  });

  it('a signed-in user confirms an enrollment only once: the second is a 409 that changes nothing', async () => {
    const user = await enrolledUser();
    const before = await host.deps.table.get<TotpCredentialRecord>(keys.totpCredential(strict.tenantId, user.id));
    const res = await http.request('POST', '/v1/mfa/enroll/confirm', { token: user.accessToken, body: { code: await currentCode(user.totpSecret!) } });
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body).toMatchObject({ code: 'conflict', detail: expect.stringMatching(/already enrolled/) });
    expect(await host.deps.table.get(keys.totpCredential(strict.tenantId, user.id))).toEqual(before);
  });

  it('restarting an enrollment that a parallel request confirms meanwhile is a 409: the enabled secret stays', async () => {
    const session = await login(http, clock, relaxed.admin.email);
    const first = await http.request('POST', '/v1/mfa/enroll/start', { token: session.accessToken, body: { current_password: PASSWORD } });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const credentialKey = keys.totpCredential(relaxed.tenantId, relaxed.admin.id);
    const pending = await host.deps.table.get<TotpCredentialRecord>(credentialKey);
    expect(pending).toMatchObject({ enabled_at: null });
    const table = host.deps.table;
    const put = table.put.bind(table);
    vi.spyOn(table, 'put').mockImplementationOnce(async (input) => {
      // The first enrollment's confirmation lands between the restart's read and its write.
      expect((await http.request('POST', '/v1/mfa/enroll/confirm', { token: session.accessToken, body: { code: await currentCode((first.body as { secret: string }).secret) } })).status).toBe(200);
      return put(input);
    });
    const restart = await http.request('POST', '/v1/mfa/enroll/start', { token: session.accessToken, body: { current_password: PASSWORD } });
    expect(restart.status, JSON.stringify(restart.body)).toBe(409);
    expect(restart.body).toMatchObject({ code: 'conflict', detail: expect.stringMatching(/already enrolled/) });
    expect(await table.get(credentialKey)).toMatchObject({ secret_encrypted: pending!.secret_encrypted, enabled_at: expect.any(String) });
  });

  it('a challenge answered by a user without TOTP is refused like a wrong code, and audited', async () => {
    const admin = await login(http, clock, relaxed.admin.email);
    const email = `plain@${relaxed.domain}`;
    const id = await createUser(http, admin.accessToken, { email, role: 'viewer' });
    const session = await login(http, clock, email);
    const res = await http.request('POST', '/v1/mfa/challenge', { token: session.accessToken, body: { code: '123456' } });
    expect(res.status, JSON.stringify(res.body)).toBe(401);
    expect(res.body).toMatchObject({ code: 'invalid_credentials' });
    expect((await identityAuditEvents(host.deps, relaxed.tenantId)).filter((e) => e.action === 'mfa_challenge_failed' && e.target_id === id)).toHaveLength(1);
  });

  it('the mfa_token of a user disabled meanwhile completes nothing', async () => {
    const user = await enrolledUser();
    const mfaToken = await mfaTokenOf(user.email);
    const admin = await login(http, clock, strict.admin.email);
    // Disabling a user is a MANAGE_USERS action: the admin steps up first.
    const stepped = await http.request('POST', '/v1/mfa/challenge', { token: admin.accessToken, body: { code: await currentCode(admin.totpSecret!) } });
    expect(stepped.status, JSON.stringify(stepped.body)).toBe(200);
    const disabled = await http.request('POST', `/v1/users/${user.id}/disable`, { token: (stepped.body as { access_token: string }).access_token });
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
    const res = await http.request('POST', '/v1/mfa/challenge', { body: { mfa_token: mfaToken, code: await currentCode(user.totpSecret!) } });
    expect(res.status, JSON.stringify(res.body)).toBe(401);
    expect(res.body).toMatchObject({ code: 'unauthenticated', detail: expect.stringMatching(/MFA token is not valid/) });
    // Its only sign-in is the first one, which enrolled it.
    const signIns = (await identityAuditEvents(host.deps, strict.tenantId)).filter((e) => e.actor_id === user.id && ['login_succeeded', 'mfa_enrolled'].includes(e.action));
    expect(signIns.map((e) => e.action)).toEqual(['mfa_enrolled']);
  });
});
