/**
 * Sessions at their edges: a tenant admin signing in to a workspace of the tenant they hold no
 * role in, and logout with a token that is not a refresh token or names no session (204, like
 * any logout: it says nothing about what exists, and ends nothing else).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOpaqueToken } from '../../shared/crypto/opaque-tokens';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, login, PASSWORD, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

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

describe('sessions at their edges', () => {
  it('a tenant admin may sign in to any workspace of the tenant, also one without a role; a member may not', async () => {
    const created = await http.request('POST', '/v1/workspaces', { token: adminToken, body: { name: 'Finance' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const finance = (created.body as { id: string }).id;
    const otherAdmin = `second-admin@${tenant.domain}`;
    await createUser(http, adminToken, { email: otherAdmin, role: 'viewer', tenant_admin: true });
    const member = `member@${tenant.domain}`;
    await createUser(http, adminToken, { email: member, role: 'viewer' });

    const res = await http.request('POST', '/v1/auth/login', { body: { email: otherAdmin, password: PASSWORD, workspace_id: finance } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ workspace_id: finance });
    const me = await http.request('GET', '/v1/me', { token: (res.body as { access_token: string }).access_token });
    expect(me.status, JSON.stringify(me.body)).toBe(200);

    const refused = await http.request('POST', '/v1/auth/login', { body: { email: member, password: PASSWORD, workspace_id: finance } });
    expect(refused.status, JSON.stringify(refused.body)).toBe(403);
    const nowhere = await http.request('POST', '/v1/auth/login', { body: { email: otherAdmin, password: PASSWORD, workspace_id: 'ws_0000000000doesnotexist' } });
    expect(nowhere.status, JSON.stringify(nowhere.body)).toBe(403);
  });

  it('logout with a token that is no refresh token, or names no session, is a 204 that ends nothing', async () => {
    const session = await login(http, clock, tenant.admin.email);
    for (const token of [generateOpaqueToken('pat'), generateOpaqueToken('refresh')]) {
      const res = await http.request('POST', '/v1/auth/logout', { body: { refresh_token: token } });
      expect(res.status, `${token.slice(0, 8)}: ${res.text}`).toBe(204);
    }
    expect((await http.request('GET', '/v1/me', { token: session.accessToken })).status).toBe(200);
    const refreshed = await http.request('POST', '/v1/auth/token', { body: { grant_type: 'refresh_token', refresh_token: session.refreshToken } });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
  });
});
