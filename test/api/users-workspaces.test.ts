import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listIdentityAuditEvents } from '../../shared/audit/audit-log';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, login, PASSWORD, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
let adminToken: string;
let viewerToken: string;
let viewerId: string;

beforeAll(async () => {
  host = await startTestHost({ clock });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
  viewerId = await createUser(http, adminToken, { email: `viewer@${tenant.domain}`, role: 'viewer' });
  viewerToken = (await login(http, clock, `viewer@${tenant.domain}`)).accessToken;
});
afterAll(() => host?.close());

describe('users', () => {
  it('a tenant admin creates a user; the answer holds no hash; the event is audited without secrets', async () => {
    const res = await http.request('POST', '/v1/users', { token: adminToken, body: { email: `New.User@${tenant.domain}`, password: PASSWORD, role: 'connector_builder' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email: `new.user@${tenant.domain}`, status: 'active', role: 'connector_builder', workspace_id: tenant.workspaceId, tenant_admin: false, mfa_enrolled: false });
    expect(JSON.stringify(res.body)).not.toMatch(/argon2|password/);
    const id = (res.body as { id: string }).id;
    expect(id).toMatch(/^usr_/);

    const events = await listIdentityAuditEvents(host.deps, tenant.tenantId, { limit: 100 });
    const created = events.items.find((e) => e.action === 'user_created' && e.target_id === id);
    expect(created).toMatchObject({ actor_id: tenant.admin.id, target_type: 'user', tenant_id: tenant.tenantId });
    expect(JSON.stringify(events.items)).not.toContain(PASSWORD);
  });

  it('refuses a duplicate email (409), a common password and a short one (400)', async () => {
    const dup = await http.request('POST', '/v1/users', { token: adminToken, body: { email: `viewer@${tenant.domain}`, role: 'viewer' } });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: 'conflict' });
    const common = await http.request('POST', '/v1/users', { token: adminToken, body: { email: `c@${tenant.domain}`, role: 'viewer', password: 'password1234' } });
    expect(common.status).toBe(400);
    expect(common.body).toMatchObject({ errors: [{ path: 'password' }] });
    const short = await http.request('POST', '/v1/users', { token: adminToken, body: { email: `s@${tenant.domain}`, role: 'viewer', password: 'short' } });
    expect(short.status).toBe(400);
    const badRole = await http.request('POST', '/v1/users', { token: adminToken, body: { email: `r@${tenant.domain}`, role: 'owner' } });
    expect(badRole.status).toBe(400);
  });

  it('a viewer reads users but cannot manage them (403 before validation)', async () => {
    expect((await http.request('GET', '/v1/users', { token: viewerToken })).status).toBe(200);
    expect((await http.request('GET', `/v1/users/${tenant.admin.id}`, { token: viewerToken })).status).toBe(200);
    const create = await http.request('POST', '/v1/users', { token: viewerToken, body: { nonsense: true } });
    expect(create.status).toBe(403);
    expect((await http.request('PATCH', `/v1/users/${viewerId}`, { token: viewerToken, body: { role: 'admin' } })).status).toBe(403);
    expect((await http.request('POST', `/v1/users/${tenant.admin.id}/disable`, { token: viewerToken })).status).toBe(403);
  });

  it('a workspace admin who is not a tenant admin cannot manage users', async () => {
    await createUser(http, adminToken, { email: `wsadmin@${tenant.domain}`, role: 'admin' });
    const token = (await login(http, clock, `wsadmin@${tenant.domain}`)).accessToken;
    expect((await http.request('POST', '/v1/users', { token, body: { email: `x@${tenant.domain}`, role: 'viewer' } })).status).toBe(403);
  });

  it('updates role and email; a demotion bites at once, a promotion with the next token', async () => {
    const id = await createUser(http, adminToken, { email: `promote@${tenant.domain}`, role: 'viewer' });
    const token = (await login(http, clock, `promote@${tenant.domain}`)).accessToken;
    expect((await http.request('GET', '/v1/me', { token })).body).toMatchObject({ role: 'viewer' });
    const patched = await http.request('PATCH', `/v1/users/${id}`, { token: adminToken, body: { role: 'connector_builder', email: `promoted@${tenant.domain}` } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ role: 'connector_builder', email: `promoted@${tenant.domain}` });
    // The token's scopes are the permissions it was issued with: no escalation mid-token.
    const me = await http.request('GET', '/v1/me', { token });
    expect(me.body).toMatchObject({ role: 'connector_builder' });
    expect((me.body as { permissions: string[] }).permissions).not.toContain('connections:write');
    const promotedToken = (await login(http, clock, `promoted@${tenant.domain}`)).accessToken;
    expect((await http.request('GET', '/v1/me', { token: promotedToken })).body).toMatchObject({ permissions: expect.arrayContaining(['connections:write']) });
    // A demotion takes effect on the very next request of a token already issued.
    await http.request('PATCH', `/v1/users/${id}`, { token: adminToken, body: { role: 'viewer' } });
    expect((await http.request('GET', '/v1/me', { token: promotedToken })).body).toMatchObject({ role: 'viewer', permissions: expect.not.arrayContaining(['connections:write']) });
    await http.request('PATCH', `/v1/users/${id}`, { token: adminToken, body: { role: 'connector_builder' } });
    // The old email no longer logs in; the new one does.
    expect((await http.request('POST', '/v1/auth/login', { body: { email: `promote@${tenant.domain}`, password: PASSWORD } })).status).toBe(401);
    expect((await http.request('POST', '/v1/auth/login', { body: { email: `promoted@${tenant.domain}`, password: PASSWORD } })).status).toBe(200);
    expect((await http.request('PATCH', `/v1/users/${id}`, { token: adminToken, body: {} })).status).toBe(400);
    expect((await http.request('PATCH', `/v1/users/${id}`, { token: adminToken, body: { email: `viewer@${tenant.domain}` } })).status).toBe(409);
  });

  it('unknown ids are 404, malformed ids 400', async () => {
    expect((await http.request('GET', '/v1/users/usr_0000000000000000000000000', { token: adminToken })).status).toBe(404);
    expect((await http.request('GET', '/v1/users/ws_0000000000000000000000000', { token: adminToken })).status).toBe(400);
  });

  it('lists users with a cursor bound to the list', async () => {
    // Admin, viewer and this one: more than a page of two, whatever ran before.
    await createUser(http, adminToken, { email: `paged-${Date.now()}@${tenant.domain}`, role: 'viewer' });
    const first = await http.request('GET', '/v1/users?limit=2', { token: adminToken });
    expect(first.status).toBe(200);
    const page = first.body as { users: { id: string }[]; next_cursor: string };
    expect(page.users).toHaveLength(2);
    expect(page.next_cursor).toBeTruthy();
    const second = await http.request('GET', `/v1/users?limit=2&cursor=${page.next_cursor}`, { token: adminToken });
    // A next_cursor promises more: the second page is not empty, and shares no user with the first.
    const secondIds = (second.body as { users: { id: string }[] }).users.map((u) => u.id);
    expect(secondIds.length).toBeGreaterThan(0);
    expect(secondIds.filter((id) => page.users.some((u) => u.id === id))).toEqual([]);
    const other = await createTestTenant(host.deps, { mfaMode: 'OFF' });
    const otherToken = (await login(http, clock, other.admin.email)).accessToken;
    expect((await http.request('GET', `/v1/users?cursor=${page.next_cursor}`, { token: otherToken })).status).toBe(400);
    expect((await http.request('GET', '/v1/users?limit=0', { token: adminToken })).status).toBe(400);
    expect((await http.request('GET', '/v1/users?limit=101', { token: adminToken })).status).toBe(400);
  });

  it('a disabled user is enabled again, signs in anew, and nothing from before comes back', async () => {
    const email = `comeback@${tenant.domain}`;
    const id = await createUser(http, adminToken, { email, role: 'connector_builder' });
    const before = await login(http, clock, email);
    const patRes = await http.request('POST', '/v1/tokens', { token: before.accessToken, body: { name: 'old', scopes: ['connections:read'] } });
    expect(patRes.status).toBe(201);
    const oldPat = (patRes.body as { token: string }).token;

    expect((await http.request('POST', `/v1/users/${id}/disable`, { token: adminToken })).status).toBe(200);
    expect((await http.request('POST', '/v1/auth/login', { body: { email, password: PASSWORD } })).status).toBe(401);
    // A viewer may not enable; an unknown user is 404.
    expect((await http.request('POST', `/v1/users/${id}/enable`, { token: viewerToken })).status).toBe(403);
    expect((await http.request('POST', '/v1/users/usr_0000000000absent/enable', { token: adminToken })).status).toBe(404);

    clock.advance(1);
    const enabled = await http.request('POST', `/v1/users/${id}/enable`, { token: adminToken });
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ id, status: 'active' });
    // Idempotent: enabling an active user changes nothing.
    expect((await http.request('POST', `/v1/users/${id}/enable`, { token: adminToken })).body).toMatchObject({ id, status: 'active' });

    // Nothing issued before comes back: the old access token, refresh token and PAT stay refused.
    expect((await http.request('GET', '/v1/me', { token: before.accessToken })).status).toBe(401);
    expect((await http.request('POST', '/v1/auth/token', { body: { grant_type: 'refresh_token', refresh_token: before.refreshToken } })).status).toBe(401);
    expect((await http.request('GET', '/v1/me', { token: oldPat })).status).toBe(401);
    // A new sign-in works, and a PAT made now works.
    const after = await login(http, clock, email);
    expect((await http.request('GET', '/v1/me', { token: after.accessToken })).body).toMatchObject({ id, status: 'active' });
    const fresh = (await http.request('POST', '/v1/tokens', { token: after.accessToken, body: { name: 'new', scopes: ['connections:read'] } })).body as { token: string };
    expect((await http.request('GET', '/v1/me', { token: fresh.token })).status).toBe(200);

    const events = await listIdentityAuditEvents(host.deps, tenant.tenantId, { limit: 100 });
    expect(events.items.filter((e) => e.target_id === id && e.action === 'user_enabled')).toHaveLength(1);
  });

  it('an admin cannot disable themself', async () => {
    expect((await http.request('POST', `/v1/users/${tenant.admin.id}/disable`, { token: adminToken })).status).toBe(403);
  });
});

describe('workspaces', () => {
  it('a tenant admin creates one and owns it; a viewer cannot', async () => {
    const res = await http.request('POST', '/v1/workspaces', { token: adminToken, body: { name: 'Security' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Security', owner_id: tenant.admin.id, tenant_id: tenant.tenantId });
    expect((await http.request('POST', '/v1/workspaces', { token: viewerToken, body: { name: 'Nope' } })).status).toBe(403);
    const adminList = await http.request('GET', '/v1/workspaces', { token: adminToken });
    expect((adminList.body as { workspaces: unknown[] }).workspaces.length).toBeGreaterThanOrEqual(2);
    const viewerList = await http.request('GET', '/v1/workspaces', { token: viewerToken });
    expect((viewerList.body as { workspaces: { id: string }[] }).workspaces.map((w) => w.id)).toEqual([tenant.workspaceId]);
  });

  it('ownership transfer: tenant admins only, to an active user, audited with both owners', async () => {
    const ws = (await http.request('POST', '/v1/workspaces', { token: adminToken, body: { name: 'Transfer' } })).body as { id: string };
    const newOwner = await createUser(http, adminToken, { email: `owner@${tenant.domain}`, role: 'viewer' });
    expect((await http.request('POST', `/v1/workspaces/${ws.id}/owner-transfer`, { token: viewerToken, body: { new_owner_id: newOwner } })).status).toBe(403);
    expect((await http.request('POST', `/v1/workspaces/${ws.id}/owner-transfer`, { token: adminToken, body: { new_owner_id: 'usr_0000000000000000000000000' } })).status).toBe(400);
    expect((await http.request('POST', '/v1/workspaces/ws_0000000000000000000000000/owner-transfer', { token: adminToken, body: { new_owner_id: newOwner } })).status).toBe(404);

    const res = await http.request('POST', `/v1/workspaces/${ws.id}/owner-transfer`, { token: adminToken, body: { new_owner_id: newOwner } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: ws.id, owner_id: newOwner });
    const events = await listIdentityAuditEvents(host.deps, tenant.tenantId, { limit: 100 });
    expect(events.items.find((e) => e.action === 'workspace_owner_transferred' && e.target_id === ws.id)).toMatchObject({
      actor_id: tenant.admin.id,
      payload: { old_owner_id: tenant.admin.id, new_owner_id: newOwner, new_owner_role_before: null },
    });
    // The new owner had no role there and is now its admin: that promotion is recorded too.
    expect(events.items.filter((e) => e.action === 'user_updated' && e.target_id === newOwner)).toEqual([
      expect.objectContaining({ actor_id: tenant.admin.id, workspace_id: ws.id, payload: { changed: ['role'], role: 'admin', previous_role: null, workspace_id: ws.id, reason: 'workspace_owner_transfer' } }),
    ]);
    const promoted = (await http.request('GET', `/v1/users/${newOwner}`, { token: adminToken })).body as { memberships: { workspace_id: string; role: string }[] };
    expect(promoted.memberships).toContainEqual({ workspace_id: ws.id, role: 'admin' });
    // Back to an owner who already administers it: no role changes, so none is recorded.
    expect((await http.request('POST', `/v1/workspaces/${ws.id}/owner-transfer`, { token: adminToken, body: { new_owner_id: tenant.admin.id } })).status).toBe(200);
    const after = await listIdentityAuditEvents(host.deps, tenant.tenantId, { limit: 100 });
    expect(after.items.filter((e) => e.action === 'user_updated' && e.target_id === tenant.admin.id)).toEqual([]);
    expect(after.items.filter((e) => e.action === 'workspace_owner_transferred' && e.target_id === ws.id)).toHaveLength(2);

    const disabled = await createUser(http, adminToken, { email: `inactive@${tenant.domain}`, role: 'viewer' });
    await http.request('POST', `/v1/users/${disabled}/disable`, { token: adminToken });
    expect((await http.request('POST', `/v1/workspaces/${ws.id}/owner-transfer`, { token: adminToken, body: { new_owner_id: disabled } })).status).toBe(400);
  });
});

describe('service endpoints', () => {
  it('health, permissions and the OpenAPI document', async () => {
    expect((await http.request('GET', '/v1/health')).body).toEqual({ status: 'ok' });
    const perms = await http.request('GET', '/v1/permissions', { token: viewerToken });
    expect((perms.body as { permissions: { name: string }[] }).permissions.map((p) => p.name)).toEqual(expect.arrayContaining(['connections:write', 'users:manage', 'idp:manage']));
    expect((await http.request('GET', '/v1/permissions')).status).toBe(401);
    const doc = (await http.request('GET', '/v1/openapi.json')).body as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/auth/login', '/v1/tokens/{id}/rotate', '/v1/users/{id}']));
    expect(doc.paths['/v1/auth/login']?.post).toMatchObject({ requestBody: { content: { 'application/json': { schema: { additionalProperties: false } } } } });
  });
});
