/**
 * `POST /v1/users/{id}/mfa/reset`: a tenant admin removes a user's authenticator and backup
 * codes, every session of the user ends, and the next sign-in enrolls anew. Only a tenant admin's
 * interactive session with a recent MFA may (a PAT never, whatever its scopes), and only for a
 * user of their own tenant.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../shared/crypto/totp';
import { keys } from '../../shared/store/keys';
import { api, type HttpClient, type HttpResponse } from '../support/http-client';
import { createTestTenant, createUser, login, PASSWORD, type Session, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

const STALE = 11 * 60; // past the 10-minute step-up window, within the 15-minute token life

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
/** The default policy: REQUIRED with all seven actions. */
let tenant: TestTenant;
let users = 0;

beforeAll(async () => {
  host = await startTestHost({ clock });
  http = api(host.url);
  tenant = await createTestTenant(host.deps);
});
afterAll(async () => {
  await host?.close();
});

function expectProblem(res: HttpResponse, status: number, code: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ code });
}

const reset = (token: string, userId: string) => http.request('POST', `/v1/users/${userId}/mfa/reset`, { token });
const refresh = (refreshToken: string) => http.request('POST', '/v1/auth/token', { body: { grant_type: 'refresh_token', refresh_token: refreshToken } });

/** A new user of `of` with `role`, enrolled by its first sign-in, and that session. */
async function enrolledUser(adminToken: string, role = 'viewer', of = tenant, extra: Record<string, unknown> = {}): Promise<Session & { id: string; email: string }> {
  const email = `user${++users}@${of.domain}`;
  const id = await createUser(http, adminToken, { email, role, ...extra });
  const session = await login(http, clock, email);
  expect(session.totpSecret).toBeDefined();
  return { ...session, id, email };
}

/** What MFA the user still has in the table: the TOTP credential and the backup codes. */
async function storedMfa(of: TestTenant, userId: string): Promise<{ totp: boolean; backupCodes: number }> {
  const totp = await host.deps.table.get(keys.totpCredential(of.tenantId, userId));
  const codes = await host.deps.table.queryPrefix(keys.backupCodes(of.tenantId, userId), { limit: 100 });
  return { totp: totp !== undefined, backupCodes: codes.items.length };
}

describe("a tenant admin resets a user's MFA", () => {
  it('removes the authenticator and backup codes, ends every session, audits it; the next sign-in enrolls anew', async () => {
    const admin = await login(http, clock, tenant.admin.email);
    const user = await enrolledUser(admin.accessToken);
    const second = await login(http, clock, user.email); // a second session, answering the challenge
    expect(await storedMfa(tenant, user.id)).toEqual({ totp: true, backupCodes: 10 });

    const res = await reset(admin.accessToken, user.id);
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe('');

    expect(await storedMfa(tenant, user.id)).toEqual({ totp: false, backupCodes: 0 });
    for (const session of [user, second]) {
      expectProblem(await http.request('GET', '/v1/me', { token: session.accessToken }), 401, 'unauthenticated');
      expectProblem(await refresh(session.refreshToken), 401, 'unauthenticated');
    }
    const shown = await http.request('GET', `/v1/users/${user.id}`, { token: admin.accessToken });
    expect(shown.body).toMatchObject({ id: user.id, email: user.email, mfa_enrolled: false, status: 'active' });

    // The tenant audit log, as an admin reads it.
    const audit = await http.request('GET', `/v1/tenants/${tenant.tenantId}/audit-events?action=mfa_reset`, { token: admin.accessToken });
    expect(audit.status, audit.text).toBe(200);
    const events = (audit.body as { audit_events: Record<string, unknown>[] }).audit_events.filter((e) => e.target_id === user.id);
    expect(events).toEqual([
      expect.objectContaining({ action: 'mfa_reset', actor_id: tenant.admin.id, target_type: 'user', target_id: user.id, source_ip: expect.any(String), payload: { email: user.email, was_enrolled: true, backup_codes_removed: 10, sessions_ended: true } }),
    ]);

    // The old authenticator is gone: the next sign-in enrolls a new one (REQUIRED).
    const next = await http.request('POST', '/v1/auth/login', { body: { email: user.email, password: PASSWORD } });
    expect(next.body).toMatchObject({ mfa_required: true, enrollment_required: true });
    const mfaToken = (next.body as { mfa_token: string }).mfa_token;
    expectProblem(await http.request('POST', '/v1/mfa/challenge', { body: { mfa_token: mfaToken, code: await totpCode(user.totpSecret!, clock.epochSeconds()) } }), 403, 'forbidden');
    const started = await http.request('POST', '/v1/mfa/enroll/start', { body: { mfa_token: mfaToken } });
    expect(started.status, started.text).toBe(200);
    expect((started.body as { secret: string }).secret).not.toBe(user.totpSecret);
  });

  it('a user who never enrolled: still 204, their sessions end', async () => {
    const off = await createTestTenant(host.deps, { mfaMode: 'OFF' });
    const admin = await login(http, clock, off.admin.email);
    const email = `plain${++users}@${off.domain}`;
    const id = await createUser(http, admin.accessToken, { email, role: 'viewer' });
    const session = await login(http, clock, email);
    expect((await reset(admin.accessToken, id)).status).toBe(204);
    expectProblem(await refresh(session.refreshToken), 401, 'unauthenticated');
    // The admin's own session is untouched.
    expect((await http.request('GET', '/v1/me', { token: admin.accessToken })).status).toBe(200);
  });
});

describe('who may not', () => {
  it('a personal access token, whatever its scopes, even where no step-up is asked (policy OFF): 403, nothing changes', async () => {
    // Enrolled under the default REQUIRED, then the policy OFF: no step-up is in the way.
    const enrolledTenant = await createTestTenant(host.deps);
    const enrolledAdmin = await login(http, clock, enrolledTenant.admin.email);
    const user = await enrolledUser(enrolledAdmin.accessToken, 'viewer', enrolledTenant);
    expect((await http.request('PATCH', `/v1/tenants/${enrolledTenant.tenantId}/mfa-policy`, { token: enrolledAdmin.accessToken, body: { mfa_mode: 'OFF' } })).status).toBe(200);
    const scopes = ((await http.request('GET', '/v1/me', { token: enrolledAdmin.accessToken })).body as { permissions: string[] }).permissions;
    expect(scopes).toContain('users:manage');
    const pat = await http.request('POST', '/v1/tokens', { token: enrolledAdmin.accessToken, body: { name: 'all of it', scopes, expires_in_days: 1 } });
    expect(pat.status, pat.text).toBe(201);
    const refused = await reset((pat.body as { token: string }).token, user.id);
    expectProblem(refused, 403, 'forbidden');
    expect(refused.body).toMatchObject({ detail: expect.stringContaining('personal access token') });
    expect(await storedMfa(enrolledTenant, user.id)).toEqual({ totp: true, backupCodes: 10 });
    expect((await http.request('GET', '/v1/me', { token: user.accessToken })).status).toBe(200);
  });

  it('a viewer, a connector builder and a workspace admin who is no tenant admin: 403', async () => {
    const admin = await login(http, clock, tenant.admin.email);
    const target = await enrolledUser(admin.accessToken);
    for (const role of ['viewer', 'connector_builder', 'admin']) {
      const caller = await enrolledUser(admin.accessToken, role);
      // Fresh MFA from the sign-in: only the permission can refuse.
      const res = await reset(caller.accessToken, target.id);
      expectProblem(res, 403, 'forbidden');
      expect(res.body, role).toMatchObject({ detail: expect.stringContaining('users:manage') });
    }
    expect(await storedMfa(tenant, target.id)).toEqual({ totp: true, backupCodes: 10 });
    expect((await http.request('GET', '/v1/me', { token: target.accessToken })).status).toBe(200);
  });

  it("another tenant's admin: 404 for the user, as for one that does not exist; nothing changes", async () => {
    const admin = await login(http, clock, tenant.admin.email);
    const target = await enrolledUser(admin.accessToken);
    const other = await createTestTenant(host.deps);
    const otherAdmin = await login(http, clock, other.admin.email);
    expectProblem(await reset(otherAdmin.accessToken, target.id), 404, 'not_found');
    expectProblem(await reset(admin.accessToken, 'usr_0000000000absent'), 404, 'not_found');
    expect(await storedMfa(tenant, target.id)).toEqual({ totp: true, backupCodes: 10 });
    expect((await http.request('GET', '/v1/me', { token: target.accessToken })).status).toBe(200);
  });

  it('a tenant admin whose MFA is older than 10 minutes: 401 mfa_required, then after a step-up 204', async () => {
    const admin = await login(http, clock, tenant.admin.email);
    const target = await enrolledUser(admin.accessToken);
    clock.advance(STALE);
    const stale = await reset(admin.accessToken, target.id);
    expectProblem(stale, 401, 'mfa_required');
    expect(stale.headers['www-authenticate']).toMatch(/insufficient_user_authentication/);
    expect(await storedMfa(tenant, target.id)).toEqual({ totp: true, backupCodes: 10 });

    const stepUp = await http.request('POST', '/v1/mfa/challenge', { token: admin.accessToken, body: { code: await totpCode(admin.totpSecret!, clock.epochSeconds()) } });
    expect(stepUp.status, stepUp.text).toBe(200);
    clock.advance(30);
    expect((await reset((stepUp.body as { access_token: string }).access_token, target.id)).status).toBe(204);
    expect(await storedMfa(tenant, target.id)).toEqual({ totp: false, backupCodes: 0 });
  });

  it('no credential: 401; a malformed id: 400', async () => {
    expectProblem(await http.request('POST', `/v1/users/usr_0000000000absent/mfa/reset`), 401, 'unauthenticated');
    const admin = await login(http, clock, tenant.admin.email);
    expectProblem(await reset(admin.accessToken, 'not-a-user-id'), 400, 'validation_failed');
  });
});
