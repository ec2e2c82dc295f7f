/**
 * A session does not become the account (issue 25, finding 1). Binding the first authenticator
 * from an access token needs the current password (a login's mfa_token has just proven it), and
 * under REQUIRED a password session that never answered an MFA cannot refresh. The attacker of
 * the finding holds the refresh and access token of a session begun while the policy was OFF.
 * (The SSO side, a sign-in at the IdP in the last 10 minutes, is test/peers/sso-mfa-ownership.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../shared/crypto/opaque-tokens';
import { totpCode } from '../../shared/crypto/totp';
import { mfaActions } from '../../shared/store/identity-enums';
import { keys } from '../../shared/store/keys';
import type { RefreshFamilyRecord, RefreshTokenRecord } from '../../shared/store/records';
import { api, type HttpClient, type HttpResponse } from '../support/http-client';
import { createTestTenant, createUser, identityAuditEvents, login, PASSWORD, type Session, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

/** Per (account, address) wrong passwords before the login limiter refuses even the right one. */
const ACCOUNT_IP_FAILURES = 3;

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let users = 0;

beforeAll(async () => {
  host = await startTestHost({ clock, env: { TESSERA_RATE_LOGIN_ACCOUNT_IP_FAILURES: String(ACCOUNT_IP_FAILURES) } });
  http = api(host.url);
});
afterAll(async () => {
  await host?.close();
});

function expectProblem(res: HttpResponse, status: number, code: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ code });
}

/** A tenant whose policy is OFF, its admin's session, and a user of it signed in (amr pwd, no MFA). */
async function userSignedInWhileOff(): Promise<{ tenant: TestTenant; admin: Session; user: Session & { id: string; email: string } }> {
  const tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  const admin = await login(http, clock, tenant.admin.email);
  const email = `victim${++users}@${tenant.domain}`;
  const id = await createUser(http, admin.accessToken, { email, role: 'connector_builder' });
  const user = await login(http, clock, email);
  expect(user.totpSecret).toBeUndefined();
  return { tenant, admin, user: { ...user, id, email } };
}

async function setPolicy(tenant: TestTenant, adminToken: string, body: Record<string, unknown>): Promise<void> {
  const res = await http.request('PATCH', `/v1/tenants/${tenant.tenantId}/mfa-policy`, { token: adminToken, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const refresh = (refreshToken: string) => http.request('POST', '/v1/auth/token', { body: { grant_type: 'refresh_token', refresh_token: refreshToken } });
const enrollStart = (token: string, body?: Record<string, unknown>) => http.request('POST', '/v1/mfa/enroll/start', { token, ...(body ? { body } : {}) });
const totpItem = (tenant: TestTenant, userId: string) => host.deps.table.get(keys.totpCredential(tenant.tenantId, userId));

describe('the holder of a session begun under OFF, after the admin sets REQUIRED', () => {
  it('can neither refresh it nor bind the first authenticator; the owner, with the password, can', async () => {
    const { tenant, admin, user } = await userSignedInWhileOff();
    await setPolicy(tenant, admin.accessToken, { mfa_mode: 'REQUIRED', required_actions: [...mfaActions] });

    // The refresh token alone: the session never answered an MFA, so it does not go on.
    const refused = await refresh(user.refreshToken);
    expectProblem(refused, 401, 'unauthenticated');
    expect(refused.body).toMatchObject({ detail: expect.stringMatching(/sign in again/) });

    // The access token alone: no secret without the password, neither with no body nor an empty one.
    for (const body of [undefined, {}]) {
      const missing = await enrollStart(user.accessToken, body);
      expectProblem(missing, 400, 'validation_failed');
      expect(missing.body).toMatchObject({ errors: [{ path: 'current_password' }] });
      expect(missing.body).not.toHaveProperty('secret');
    }
    const wrong = await enrollStart(user.accessToken, { current_password: 'a guess at the password' });
    expectProblem(wrong, 401, 'invalid_credentials');
    expect(wrong.body).not.toHaveProperty('secret');
    expect(await totpItem(tenant, user.id)).toBeUndefined();
    const failures = (await identityAuditEvents(host.deps, tenant.tenantId)).filter((e) => e.action === 'mfa_enrollment_failed' && e.target_id === user.id);
    expect(failures.map((e) => e.payload)).toEqual([{ reason: 'wrong_current_password' }]);
    // Nothing was started, so there is nothing to confirm either.
    expectProblem(await http.request('POST', '/v1/mfa/enroll/confirm', { token: user.accessToken, body: { code: '123456' } }), 409, 'conflict');

    // The owner gives the password: the enrollment goes through.
    const started = await enrollStart(user.accessToken, { current_password: PASSWORD });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const secret = (started.body as { secret: string }).secret;
    const confirmed = await http.request('POST', '/v1/mfa/enroll/confirm', { token: user.accessToken, body: { code: await totpCode(secret, clock.epochSeconds()) } });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    clock.advance(30);
    expect((confirmed.body as { backup_codes: string[] }).backup_codes).toHaveLength(10);
    // The session itself still began without MFA: it ends; the next sign-in asks for the code.
    expectProblem(await refresh(user.refreshToken), 401, 'unauthenticated');
    const next = await http.request('POST', '/v1/auth/login', { body: { email: user.email, password: PASSWORD } });
    expect(next.body).toMatchObject({ mfa_required: true, enrollment_required: false });
  });

  it('the refused refresh token is not used up: no reuse, no revoked family, nothing audited as a reuse', async () => {
    const { tenant, admin, user } = await userSignedInWhileOff();
    await setPolicy(tenant, admin.accessToken, { mfa_mode: 'REQUIRED' });
    expectProblem(await refresh(user.refreshToken), 401, 'unauthenticated');
    expectProblem(await refresh(user.refreshToken), 401, 'unauthenticated');
    const record = await host.deps.table.get<RefreshTokenRecord>(keys.refreshToken(sha256Hex(user.refreshToken)));
    expect(record).toMatchObject({ used_at: null });
    const family = await host.deps.table.get<RefreshFamilyRecord>(keys.refreshFamily(tenant.tenantId, user.id, record!.family_id));
    expect(family).toMatchObject({ revoked_at: null });
    const actions = (await identityAuditEvents(host.deps, tenant.tenantId)).filter((e) => e.target_id === user.id).map((e) => e.action);
    expect(actions).toContain('login_succeeded');
    expect(actions).not.toContain('refresh_token_reused');
  });
});

describe('what still refreshes', () => {
  it('OPTIONAL: a session without MFA goes on', async () => {
    const { tenant, admin, user } = await userSignedInWhileOff();
    await setPolicy(tenant, admin.accessToken, { mfa_mode: 'OPTIONAL' });
    expect((await refresh(user.refreshToken)).status).toBe(200);
  });

  it('REQUIRED without LOGIN: an enrolled user signs in with the password alone and goes on; an unenrolled one does not', async () => {
    const tenant = await createTestTenant(host.deps);
    const admin = await login(http, clock, tenant.admin.email); // enrolls: the default policy is REQUIRED
    const email = `plain${++users}@${tenant.domain}`;
    await createUser(http, admin.accessToken, { email, role: 'viewer' });
    await setPolicy(tenant, admin.accessToken, { mfa_mode: 'OFF' });
    const unenrolled = await login(http, clock, email);
    await setPolicy(tenant, admin.accessToken, { mfa_mode: 'REQUIRED', required_actions: ['CREATE_PAT'] });

    const plain = await http.request('POST', '/v1/auth/login', { body: { email: tenant.admin.email, password: PASSWORD } });
    expect(plain.body).toHaveProperty('refresh_token'); // LOGIN is not listed: no challenge
    expect((await refresh((plain.body as { refresh_token: string }).refresh_token)).status).toBe(200);
    // A sign-in now would make this one enroll: its session without MFA ends.
    expectProblem(await refresh(unenrolled.refreshToken), 401, 'unauthenticated');
  });

  it('REQUIRED: a session that answered its MFA at sign-in goes on', async () => {
    const tenant = await createTestTenant(host.deps);
    const session = await login(http, clock, tenant.admin.email);
    expect(session.totpSecret).toBeDefined();
    expect((await refresh(session.refreshToken)).status).toBe(200);
  });
});

describe('enrollment from a session', () => {
  it('wrong current passwords count under the login limiter: past it, even the right one (and a login) is refused', async () => {
    const { user } = await userSignedInWhileOff();
    for (let i = 0; i < ACCOUNT_IP_FAILURES; i++) expectProblem(await enrollStart(user.accessToken, { current_password: `wrong guess ${i}` }), 401, 'invalid_credentials');
    const limited = await enrollStart(user.accessToken, { current_password: PASSWORD });
    expectProblem(limited, 429, 'rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expectProblem(await http.request('POST', '/v1/auth/login', { body: { email: user.email, password: PASSWORD } }), 429, 'rate_limited');
  });

  it('an already enrolled account answers 409 whatever the body, checking no password', async () => {
    const tenant = await createTestTenant(host.deps);
    const session = await login(http, clock, tenant.admin.email);
    expectProblem(await enrollStart(session.accessToken), 409, 'conflict');
    expectProblem(await enrollStart(session.accessToken, { current_password: 'not the password' }), 409, 'conflict');
    expect((await identityAuditEvents(host.deps, tenant.tenantId)).filter((e) => e.action === 'mfa_enrollment_failed')).toEqual([]);
  });

  it("a login's mfa_token enrolls as before, with no body and no password", async () => {
    const tenant = await createTestTenant(host.deps);
    const pending = await http.request('POST', '/v1/auth/login', { body: { email: tenant.admin.email, password: PASSWORD } });
    expect(pending.body).toMatchObject({ mfa_required: true, enrollment_required: true });
    const mfaToken = (pending.body as { mfa_token: string }).mfa_token;
    const asBearer = await http.request('POST', '/v1/mfa/enroll/start', { token: mfaToken });
    expect(asBearer.status, JSON.stringify(asBearer.body)).toBe(200);
    const inBody = await http.request('POST', '/v1/mfa/enroll/start', { body: { mfa_token: mfaToken } });
    expect(inBody.status, JSON.stringify(inBody.body)).toBe(200);
  });
});
