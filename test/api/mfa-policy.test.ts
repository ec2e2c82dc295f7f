/**
 * The tenant MFA policy over HTTP: reading and changing it (admins of their own tenant only,
 * validated, audited, itself guarded by a recent MFA), and what each mode asks at login and
 * for listed actions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../shared/crypto/totp';
import { mfaActions } from '../../shared/store/identity-enums';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, identityAuditEvents, login, PASSWORD, totpSecrets, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();

beforeAll(async () => {
  host = await startTestHost({ clock });
  http = api(host.url);
});
afterAll(() => host?.close());

const policyPath = (tenantId: string) => `/v1/tenants/${tenantId}/mfa-policy`;
const getPolicy = (tenantId: string, token: string) => http.request('GET', policyPath(tenantId), { token });
const patchPolicy = (tenantId: string, token: string, body: unknown) => http.request('PATCH', policyPath(tenantId), { token, body });
const passwordLogin = (email: string) => http.request('POST', '/v1/auth/login', { body: { email, password: PASSWORD } });

describe('reading and changing the policy', () => {
  let tenant: TestTenant;
  let adminToken: string;

  beforeAll(async () => {
    tenant = await createTestTenant(host.deps);
    adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
  });

  it('a new tenant starts REQUIRED with all seven actions', async () => {
    const res = await getPolicy(tenant.tenantId, adminToken);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tenant_id: tenant.tenantId, mfa_mode: 'REQUIRED', required_actions: [...mfaActions] });
    expect(mfaActions).toHaveLength(7);
    const body = res.body as { created_at: string; updated_at: string };
    expect(Date.parse(body.created_at)).not.toBeNaN();
  });

  it('PATCH changes what is given, keeps the rest, answers the registry order, and is audited', async () => {
    const res = await patchPolicy(tenant.tenantId, adminToken, { required_actions: ['MANAGE_USERS', 'LOGIN', 'CREATE_PAT'] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ tenant_id: tenant.tenantId, mfa_mode: 'REQUIRED', required_actions: ['LOGIN', 'CREATE_PAT', 'MANAGE_USERS'] });
    expect((await getPolicy(tenant.tenantId, adminToken)).body).toEqual(res.body);

    const mode = await patchPolicy(tenant.tenantId, adminToken, { mfa_mode: 'OPTIONAL' });
    expect(mode.body).toMatchObject({ mfa_mode: 'OPTIONAL', required_actions: ['LOGIN', 'CREATE_PAT', 'MANAGE_USERS'] });

    const events = (await identityAuditEvents(host.deps, tenant.tenantId)).filter((e) => e.action === 'mfa_policy_updated');
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({
      actor_id: tenant.admin.id,
      target_type: 'tenant',
      target_id: tenant.tenantId,
      payload: { before: { mfa_mode: 'REQUIRED' }, after: { mfa_mode: 'OPTIONAL', required_actions: ['LOGIN', 'CREATE_PAT', 'MANAGE_USERS'] } },
    });

    const restore = await patchPolicy(tenant.tenantId, adminToken, { mfa_mode: 'REQUIRED', required_actions: [...mfaActions] });
    expect(restore.status).toBe(200);
  });

  it('refuses bad bodies with problem+json and changes nothing', async () => {
    const before = (await getPolicy(tenant.tenantId, adminToken)).body;
    const bad: [unknown, string][] = [
      [{ mfa_mode: 'SOMETIMES' }, 'mfa_mode'],
      [{ mfa_mode: 'off' }, 'mfa_mode'],
      [{ required_actions: ['LOGIN', 'FLY'] }, 'required_actions.1'],
      [{ required_actions: 'LOGIN' }, 'required_actions'],
      [{ required_actions: ['LOGIN', 'LOGIN'] }, 'required_actions'],
      [{ mfa_mode: 'OFF', admin: true }, ''],
      [{}, ''],
      [[], ''],
      [null, ''],
    ];
    for (const [body, path] of bad) {
      const res = await patchPolicy(tenant.tenantId, adminToken, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.body).toMatchObject({ code: 'validation_failed' });
      if (path) expect((res.body as { errors: { path: string }[] }).errors.map((e) => e.path)).toContain(path);
    }
    const malformed = await http.request('PATCH', policyPath(tenant.tenantId), { token: adminToken, rawBody: '{"mfa_mode":', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 'malformed_json' });
    expect((await getPolicy(tenant.tenantId, adminToken)).body).toEqual(before);
    expect((await identityAuditEvents(host.deps, tenant.tenantId)).filter((e) => e.action === 'mfa_policy_updated')).toHaveLength(3);
  });

  it('is for tenant admins: other roles get 403, a path naming another tenant gets 403, no credential 401', async () => {
    for (const role of ['viewer', 'connector_builder']) {
      const email = `${role}@${tenant.domain}`;
      await createUser(http, adminToken, { email, role });
      const token = (await login(http, clock, email)).accessToken;
      expect((await getPolicy(tenant.tenantId, token)).status).toBe(403);
      expect((await patchPolicy(tenant.tenantId, token, { mfa_mode: 'OFF' })).status).toBe(403);
    }
    // A workspace admin who is not a tenant admin does not manage the tenant either.
    const wsAdmin = `wsadmin@${tenant.domain}`;
    await createUser(http, adminToken, { email: wsAdmin, role: 'admin' });
    const wsAdminToken = (await login(http, clock, wsAdmin)).accessToken;
    expect((await patchPolicy(tenant.tenantId, wsAdminToken, { mfa_mode: 'OFF' })).status).toBe(403);

    const other = await createTestTenant(host.deps);
    expect((await getPolicy(other.tenantId, adminToken)).status).toBe(403);
    expect((await patchPolicy(other.tenantId, adminToken, { mfa_mode: 'OFF' })).status).toBe(403);
    const otherAdmin = (await login(http, clock, other.admin.email)).accessToken;
    expect((await getPolicy(other.tenantId, otherAdmin)).body).toMatchObject({ mfa_mode: 'REQUIRED' });

    expect((await getPolicy('ten_notanid!', adminToken)).status).toBe(400);
    expect((await getPolicy(tenant.tenantId, '')).status).toBe(401);
    expect((await patchPolicy(tenant.tenantId, 'not-a-token', { mfa_mode: 'OFF' })).status).toBe(401);
    expect((await getPolicy(tenant.tenantId, adminToken)).body).toMatchObject({ mfa_mode: 'REQUIRED' });
  });

  it('changing it needs a recent MFA unless the policy is OFF; a PAT may read it, never change it', async () => {
    const session = await login(http, clock, tenant.admin.email);
    const patRes = await http.request('POST', '/v1/tokens', { token: session.accessToken, body: { name: 'policy', scopes: ['mfa_policy:manage'] } });
    expect(patRes.status).toBe(201);
    const pat = (patRes.body as { token: string }).token;
    expect((await getPolicy(tenant.tenantId, pat)).status).toBe(200);
    const viaPat = await patchPolicy(tenant.tenantId, pat, { mfa_mode: 'OFF' });
    expect(viaPat.status).toBe(403);
    expect(viaPat.body).toMatchObject({ code: 'forbidden' });

    clock.advance(11 * 60);
    const stale = await patchPolicy(tenant.tenantId, session.accessToken, { mfa_mode: 'OFF' });
    expect(stale.status).toBe(401);
    expect(stale.headers['www-authenticate']).toContain('insufficient_user_authentication');
    expect((await getPolicy(tenant.tenantId, session.accessToken)).body).toMatchObject({ mfa_mode: 'REQUIRED' });

    const stepUp = await http.request('POST', '/v1/mfa/challenge', { token: session.accessToken, body: { code: await totpCode(session.totpSecret ?? totpSecrets.get(tenant.admin.email)!, clock.epochSeconds()) } });
    expect(stepUp.status).toBe(200);
    clock.advance(30);
    const fresh = (stepUp.body as { access_token: string }).access_token;
    expect((await patchPolicy(tenant.tenantId, fresh, { mfa_mode: 'OFF' })).status).toBe(200);

    // With the policy OFF there is no MFA to protect: a session without one may turn it on; a PAT still may not.
    clock.advance(11 * 60);
    expect((await patchPolicy(tenant.tenantId, pat, { mfa_mode: 'REQUIRED' })).status).toBe(403);
    const again = await login(http, clock, tenant.admin.email);
    expect((await patchPolicy(tenant.tenantId, again.accessToken, { mfa_mode: 'REQUIRED' })).status).toBe(200);
  });
});

describe('what each mode asks', () => {
  /** A tenant with an enrolled admin and a user who never enrolled, under `body`. */
  async function tenantUnder(body: Record<string, unknown>) {
    const tenant = await createTestTenant(host.deps);
    const session = await login(http, clock, tenant.admin.email); // enrolls under the default REQUIRED
    const plain = `plain@${tenant.domain}`;
    const created = await http.request('POST', '/v1/users', { token: session.accessToken, body: { email: plain, role: 'viewer', password: PASSWORD } });
    expect(created.status).toBe(201);
    expect((await patchPolicy(tenant.tenantId, session.accessToken, body)).status).toBe(200);
    return { tenant, plain };
  }

  it('OFF: nobody is asked, not even an enrolled user; actions need no MFA', async () => {
    const { tenant, plain } = await tenantUnder({ mfa_mode: 'OFF' });
    const admin = await passwordLogin(tenant.admin.email);
    expect(admin.body).toHaveProperty('access_token');
    const token = (admin.body as { access_token: string }).access_token;
    expect((await http.request('POST', '/v1/tokens', { token, body: { name: 'no-mfa', scopes: ['users:read'] } })).status).toBe(201);
    expect((await passwordLogin(plain)).body).toHaveProperty('access_token');
  });

  it('OPTIONAL with LOGIN: enrolled users are challenged, others are not and may enroll with their access token', async () => {
    const { tenant, plain } = await tenantUnder({ mfa_mode: 'OPTIONAL', required_actions: ['LOGIN', 'CREATE_PAT'] });
    expect((await passwordLogin(tenant.admin.email)).body).toMatchObject({ mfa_required: true, enrollment_required: false });
    const res = await passwordLogin(plain);
    expect(res.body).toHaveProperty('access_token');
    const token = (res.body as { access_token: string }).access_token;
    // Not enrolled: a listed action does not ask for MFA.
    expect((await http.request('POST', '/v1/tokens', { token, body: { name: 'unenrolled', scopes: ['users:read'] } })).status).toBe(201);
    // Enrolling needs no mfa_token: the access token will do, with the current password.
    const start = await http.request('POST', '/v1/mfa/enroll/start', { token, body: { current_password: PASSWORD } });
    expect(start.status).toBe(200);
    const secret = (start.body as { secret: string }).secret;
    const confirm = await http.request('POST', '/v1/mfa/enroll/confirm', { token, body: { code: await totpCode(secret, clock.epochSeconds()) } });
    expect(confirm.status).toBe(200);
    expect(confirm.body).not.toHaveProperty('access_token');
    clock.advance(30);
    // Now enrolled, the listed action asks for a recent MFA, and so does the next login.
    expect((await http.request('POST', '/v1/tokens', { token, body: { name: 'enrolled', scopes: ['users:read'] } })).status).toBe(401);
    expect((await passwordLogin(plain)).body).toMatchObject({ mfa_required: true, enrollment_required: false });
  });

  it('OPTIONAL without LOGIN: nobody is challenged at login', async () => {
    const { tenant, plain } = await tenantUnder({ mfa_mode: 'OPTIONAL', required_actions: ['CREATE_PAT'] });
    expect((await passwordLogin(tenant.admin.email)).body).toHaveProperty('access_token');
    expect((await passwordLogin(plain)).body).toHaveProperty('access_token');
  });

  it('REQUIRED: a user without MFA is made to enroll at login, an enrolled one is challenged', async () => {
    const { tenant, plain } = await tenantUnder({ mfa_mode: 'REQUIRED', required_actions: ['LOGIN'] });
    expect((await passwordLogin(plain)).body).toMatchObject({ mfa_required: true, enrollment_required: true });
    expect((await passwordLogin(tenant.admin.email)).body).toMatchObject({ mfa_required: true, enrollment_required: false });
  });

  it('REQUIRED without LOGIN: an enrolled user signs in with the password and steps up for listed actions', async () => {
    const { tenant } = await tenantUnder({ mfa_mode: 'REQUIRED', required_actions: ['CREATE_PAT'] });
    const res = await passwordLogin(tenant.admin.email);
    expect(res.body).toHaveProperty('access_token');
    const token = (res.body as { access_token: string }).access_token;
    const refused = await http.request('POST', '/v1/tokens', { token, body: { name: 'needs-mfa', scopes: ['users:read'] } });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 'mfa_required' });
    expect((await http.request('GET', '/v1/users', { token })).status).toBe(200);
  });
});
