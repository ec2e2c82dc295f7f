/**
 * Changing who can sign in to an account is credential management (issue 25, findings 2 and 5):
 * - a PAT, whatever its scopes, never sets a user's password, email or tenant administration
 *   (403 before step-up and validation; nothing written), though it may still manage users
 *   otherwise (create without a password, roles, disable and enable);
 * - an email change ends the reset links mailed before it, ends the user's sessions (all of a
 *   target's; an admin changing their own keeps the calling session) and tells the old address.
 */
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../shared/store/keys';
import { api, type HttpClient, type HttpResponse } from '../support/http-client';
import { createTestTenant, createUser, identityAuditEvents, login, PASSWORD, type Session, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { readOutbox, resetTokenOf, type OutboxMessage } from '../support/outbox';
import { startTestHost, type TestHost } from '../support/test-host';

const NEW_PASSWORD = 'a passphrase the attacker picked';

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
let userCount = 0;

beforeAll(async () => {
  host = await startTestHost({ clock });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
});
afterAll(() => host?.close());

const adminSession = () => login(http, clock, tenant.admin.email);
const nextEmail = (label: string, domain = tenant.domain) => `${label}${++userCount}@${domain}`;
const me = (token: string) => http.request('GET', '/v1/me', { token });
const refresh = (refreshToken: string) => http.request('POST', '/v1/auth/token', { body: { grant_type: 'refresh_token', refresh_token: refreshToken } });
const patchUser = (token: string, id: string, body: Record<string, unknown>) => http.request('PATCH', `/v1/users/${id}`, { token, body });
const userEmailOf = async (token: string, id: string) => ((await http.request('GET', `/v1/users/${id}`, { token })).body as { email: string }).email;

/** A PAT of `session` holding every permission the session has (users:manage among them). */
async function allScopesPat(session: Session): Promise<string> {
  const scopes = ((await me(session.accessToken)).body as { permissions: string[] }).permissions;
  expect(scopes).toContain('users:manage');
  const res = await http.request('POST', '/v1/tokens', { token: session.accessToken, body: { name: `automation-${++userCount}`, scopes, expires_in_days: 1 } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { token: string }).token;
}

function expectPatRefused(res: HttpResponse, what: string): void {
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(403);
  expect(res.body, what).toMatchObject({ code: 'forbidden', detail: expect.stringContaining('personal access token') });
}

async function mailTo(address: string): Promise<OutboxMessage[]> {
  return (await readOutbox(host.config.outboxDir)).filter((m) => m.headers.to === address);
}

async function resetLinkFor(email: string): Promise<string> {
  const before = (await mailTo(email)).length;
  expect((await http.request('POST', '/v1/auth/password/forgot', { body: { email } })).status).toBe(202);
  const after = await mailTo(email);
  expect(after).toHaveLength(before + 1);
  return resetTokenOf(after.at(-1)!);
}

const resetWith = (token: string) => http.request('POST', '/v1/auth/password/reset', { body: { token, new_password: NEW_PASSWORD } });

describe('a PAT with users:manage never changes who can sign in', () => {
  it('cannot create a tenant admin with a password of its choosing, and writes nothing', async () => {
    const pat = await allScopesPat(await adminSession());
    const email = nextEmail('planted');
    const res = await http.request('POST', '/v1/users', { token: pat, body: { email, password: NEW_PASSWORD, role: 'admin', tenant_admin: true } });
    expectPatRefused(res, 'tenant admin with a password');
    expect((res.body as { detail: string }).detail).toMatch(/password/);

    // Nothing was written: no email item, no user in the list, no audit event, no way to sign in.
    expect(await host.deps.table.get(keys.userEmail(tenant.tenantId, email))).toBeUndefined();
    const admin = await adminSession();
    const users = (await http.request('GET', '/v1/users?limit=100', { token: admin.accessToken })).body as { users: { email: string }[] };
    expect(users.users.length).toBeGreaterThan(0);
    expect(users.users.map((u) => u.email)).not.toContain(email);
    const events = await identityAuditEvents(host.deps, tenant.tenantId);
    expect(events.filter((e) => e.action === 'user_created' && JSON.stringify(e.payload).includes(email))).toEqual([]);
    expect((await http.request('POST', '/v1/auth/login', { body: { email, password: NEW_PASSWORD } })).status).toBe(401);
  });

  it('cannot set a password, or make a tenant admin, on any user it creates', async () => {
    const pat = await allScopesPat(await adminSession());
    const withPassword = nextEmail('pwd');
    expectPatRefused(await http.request('POST', '/v1/users', { token: pat, body: { email: withPassword, password: NEW_PASSWORD, role: 'viewer' } }), 'viewer with a password');
    // Without a password a tenant admin would still be the PAT's: the reset link goes to the address it chose.
    const admin = nextEmail('adm');
    expectPatRefused(await http.request('POST', '/v1/users', { token: pat, body: { email: admin, role: 'admin', tenant_admin: true } }), 'tenant admin without a password');
    for (const email of [withPassword, admin]) expect(await host.deps.table.get(keys.userEmail(tenant.tenantId, email)), email).toBeUndefined();
  });

  it('cannot change another admin\'s email (to its own mailbox) or anyone\'s tenant administration', async () => {
    const session = await adminSession();
    const pat = await allScopesPat(session);
    const otherAdminEmail = nextEmail('otheradmin');
    const otherAdmin = await createUser(http, session.accessToken, { email: otherAdminEmail, role: 'admin', tenant_admin: true });
    const viewer = await createUser(http, session.accessToken, { email: nextEmail('viewer'), role: 'viewer' });

    const attackerMailbox = nextEmail('attacker', 'attacker.example.test');
    expectPatRefused(await patchUser(pat, otherAdmin, { email: attackerMailbox }), 'email of another admin');
    expectPatRefused(await patchUser(pat, otherAdmin, { tenant_admin: false }), 'demoting an admin');
    expectPatRefused(await patchUser(pat, viewer, { tenant_admin: true }), 'promoting a viewer');
    expectPatRefused(await patchUser(pat, viewer, { role: 'admin', tenant_admin: true }), 'a role along with tenant administration');

    // Nothing changed: the admin keeps their address, no link reaches the attacker's mailbox.
    expect(await userEmailOf(session.accessToken, otherAdmin)).toBe(otherAdminEmail);
    expect(await host.deps.table.get(keys.userEmail(tenant.tenantId, attackerMailbox))).toBeUndefined();
    expect((await http.request('POST', '/v1/auth/password/forgot', { body: { email: attackerMailbox } })).status).toBe(202);
    expect(await mailTo(attackerMailbox)).toEqual([]);
    const standing = (await http.request('GET', `/v1/users/${viewer}`, { token: session.accessToken })).body as { tenant_admin: boolean };
    expect(standing.tenant_admin).toBe(false);
    expect(((await http.request('GET', `/v1/users/${otherAdmin}`, { token: session.accessToken })).body as { tenant_admin: boolean }).tenant_admin).toBe(true);
  });

  it('is refused before validation and existence: a bad body or an unknown user still answers 403', async () => {
    const pat = await allScopesPat(await adminSession());
    expectPatRefused(await http.request('POST', '/v1/users', { token: pat, body: { email: 'not an email', password: 'short', role: 'root' } }), 'invalid body with a password');
    expectPatRefused(await patchUser(pat, 'usr_0000000000unknown', { email: nextEmail('ghost') }), 'unknown user');
    // A body that is not JSON names no field: the parser answers it, as for any credential.
    expect((await http.request('PATCH', '/v1/users/usr_0000000000unknown', { token: pat, rawBody: '{"email":', headers: { 'content-type': 'application/json' } })).status).toBe(400);
  });

  it('still manages users otherwise: creates one without a password, changes a role, disables and enables', async () => {
    const pat = await allScopesPat(await adminSession());
    const created = await http.request('POST', '/v1/users', { token: pat, body: { email: nextEmail('bypat'), role: 'viewer', tenant_admin: false } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = (created.body as { id: string }).id;
    const role = await patchUser(pat, id, { role: 'connector_builder' });
    expect(role.status, JSON.stringify(role.body)).toBe(200);
    expect(role.body).toMatchObject({ role: 'connector_builder', tenant_admin: false });
    expect((await http.request('POST', `/v1/users/${id}/disable`, { token: pat })).status).toBe(200);
    expect((await http.request('POST', `/v1/users/${id}/enable`, { token: pat })).status).toBe(200);
  });

  it('is refused before step-up: under a policy that asks MFA for MANAGE_USERS, a PAT gets 403, not mfa_required', async () => {
    const strict = await createTestTenant(host.deps, { mfaMode: 'REQUIRED' });
    const session = await login(http, clock, strict.admin.email);
    const pat = await allScopesPat(session);
    const target = await createUser(http, session.accessToken, { email: nextEmail('strict', strict.domain), role: 'viewer' });
    expectPatRefused(await patchUser(pat, target, { email: nextEmail('moved', strict.domain) }), 'email under REQUIRED');
    expectPatRefused(await http.request('POST', '/v1/users', { token: pat, body: { email: nextEmail('strictnew', strict.domain), password: NEW_PASSWORD, role: 'viewer' } }), 'password under REQUIRED');
    // What a PAT may do is still gated by the step-up it can never carry.
    const roleOnly = await patchUser(pat, target, { role: 'connector_builder' });
    expect(roleOnly.status).toBe(401);
    expect(roleOnly.body).toMatchObject({ code: 'mfa_required' });
  });
});

describe('an email change', () => {
  async function newUser(label: string): Promise<{ id: string; email: string }> {
    const admin = await adminSession();
    const email = nextEmail(label);
    return { id: await createUser(http, admin.accessToken, { email, role: 'viewer' }), email };
  }

  it('ends the reset links mailed to the old address; a link mailed afterwards works', async () => {
    const user = await newUser('resetlink');
    const oldLink = await resetLinkFor(user.email);
    const newEmail = nextEmail('resetlink-new');
    const admin = await adminSession();
    expect((await patchUser(admin.accessToken, user.id, { email: newEmail })).status).toBe(200);

    const refused = await resetWith(oldLink);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 'unauthenticated' });
    // The password did not change: the owner still signs in with it, at the new address.
    expect((await http.request('POST', '/v1/auth/login', { body: { email: newEmail, password: NEW_PASSWORD } })).status).toBe(401);
    expect((await http.request('POST', '/v1/auth/login', { body: { email: newEmail, password: PASSWORD } })).status).toBe(200);

    clock.advance(1);
    expect((await resetWith(await resetLinkFor(newEmail))).status).toBe(204);
  });

  it('made by an admin ends every session of the user: refresh and access tokens answer 401', async () => {
    const user = await newUser('sessions');
    const first = await login(http, clock, user.email);
    const second = await login(http, clock, user.email);
    const admin = await adminSession();
    clock.advance(1); // sign-in times are whole seconds; a sign-in in the change's own second stays valid
    expect((await patchUser(admin.accessToken, user.id, { email: nextEmail('sessions-new') })).status).toBe(200);

    for (const session of [first, second]) {
      expect((await me(session.accessToken)).status).toBe(401);
      expect((await refresh(session.refreshToken)).status).toBe(401);
    }
    // The admin who made the change goes on.
    expect((await me(admin.accessToken)).status).toBe(200);
    expect((await refresh(admin.refreshToken)).status).toBe(200);

    // Audited as before, and the event carries no secret: only which fields changed.
    const event = (await identityAuditEvents(host.deps, tenant.tenantId)).find((e) => e.action === 'user_updated' && e.target_id === user.id);
    expect(event?.payload).toEqual({ changed: ['email'] });
  });

  it('of one\'s own email keeps the calling session and ends the others', async () => {
    const session = await adminSession();
    const adminEmail = nextEmail('selfadmin');
    await createUser(http, session.accessToken, { email: adminEmail, role: 'admin', tenant_admin: true });
    const caller = await login(http, clock, adminEmail);
    const other = await login(http, clock, adminEmail);
    const callerId = ((await me(caller.accessToken)).body as { id: string }).id;
    clock.advance(1);
    expect((await patchUser(caller.accessToken, callerId, { email: nextEmail('selfadmin-new') })).status).toBe(200);

    expect((await me(other.accessToken)).status).toBe(401);
    expect((await refresh(other.refreshToken)).status).toBe(401);
    expect((await me(caller.accessToken)).status).toBe(200);
    const next = await refresh(caller.refreshToken);
    expect(next.status).toBe(200);
    expect(decodeJwt((next.body as { access_token: string }).access_token).sid).toBe(decodeJwt(caller.accessToken).sid);
  });

  it('tells the old address, and names the new one only masked', async () => {
    const user = await newUser('notice');
    const newEmail = nextEmail('notice-new');
    const admin = await adminSession();
    expect(await mailTo(user.email)).toEqual([]);
    expect((await patchUser(admin.accessToken, user.id, { email: newEmail })).status).toBe(200);

    const notices = await mailTo(user.email);
    expect(notices).toHaveLength(1);
    const notice = notices[0]!;
    expect(notice.headers.subject).toMatch(/email address .* changed/i);
    expect(notice.body).toContain(`${newEmail[0]}…@${tenant.domain}`);
    expect(notice.body).not.toContain(newEmail);
    expect(notice.body).toMatch(/signed out/);
    // Nothing goes to the new address for this, and a change that keeps the email sends nothing.
    expect(await mailTo(newEmail)).toEqual([]);
    expect((await patchUser(admin.accessToken, user.id, { email: newEmail, role: 'viewer' })).status).toBe(200);
    expect(await mailTo(newEmail)).toEqual([]);
  });
});
