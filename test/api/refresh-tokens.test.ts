import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login, PASSWORD, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;

const refresh = (refresh_token: string, extra: Record<string, unknown> = {}) => http.request('POST', '/v1/auth/token', { body: { grant_type: 'refresh_token', refresh_token, ...extra } });

beforeAll(async () => {
  host = await startTestHost({ clock });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
});
afterAll(() => host?.close());

describe('refresh tokens', () => {
  it('rotate on every use; the old one is dead and its reuse revokes the whole family', async () => {
    const session = await login(http, clock, tenant.admin.email);
    const first = await refresh(session.refreshToken);
    expect(first.status).toBe(200);
    const next = first.body as { access_token: string; refresh_token: string };
    expect(next.refresh_token).not.toBe(session.refreshToken);
    expect((await http.request('GET', '/v1/me', { token: next.access_token })).status).toBe(200);

    const reuse = await refresh(session.refreshToken);
    expect(reuse.status).toBe(401);
    // The family is revoked: the legitimate successor is dead too.
    expect((await refresh(next.refresh_token)).status).toBe(401);
  });

  it('parallel use of one refresh token succeeds exactly once', async () => {
    const session = await login(http, clock, tenant.admin.email);
    const results = await Promise.all(Array.from({ length: 10 }, () => refresh(session.refreshToken)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.every((r) => r.status === 200 || r.status === 401)).toBe(true);
  });

  it('switches workspace only to one the user may use', async () => {
    const session = await login(http, clock, tenant.admin.email);
    const ws = await http.request('POST', '/v1/workspaces', { token: session.accessToken, body: { name: 'Second' } });
    const wsId = (ws.body as { id: string }).id;
    const switched = await refresh(session.refreshToken, { workspace_id: wsId });
    expect(switched.status).toBe(200);
    expect(switched.body).toMatchObject({ workspace_id: wsId });
    const me = await http.request('GET', '/v1/me', { token: (switched.body as { access_token: string }).access_token });
    expect(me.body).toMatchObject({ workspace_id: wsId, role: 'admin' });
  });

  it('never names a workspace that does not exist or belongs to another tenant, even for a tenant admin', async () => {
    const other = await createTestTenant(host.deps, { mfaMode: 'OFF' });
    const madeUp = other.workspaceId.replace(/.{6}$/, '000000');
    for (const workspace_id of [madeUp, other.workspaceId]) {
      const session = await login(http, clock, tenant.admin.email);
      const switched = await refresh(session.refreshToken, { workspace_id });
      expect(switched.status, workspace_id).toBe(403);
      expect(switched.body).toMatchObject({ code: 'forbidden' });
      // The refusal spent nothing: the session goes on in its own workspace.
      const still = await refresh(session.refreshToken);
      expect(still.status).toBe(200);
      expect(still.body).toMatchObject({ workspace_id: tenant.workspaceId });
      const direct = await http.request('POST', '/v1/auth/login', { body: { email: tenant.admin.email, password: PASSWORD, workspace_id } });
      expect(direct.status, workspace_id).toBe(403);
    }
  });

  it('logout revokes the family', async () => {
    const session = await login(http, clock, tenant.admin.email);
    expect((await http.request('POST', '/v1/auth/logout', { body: { refresh_token: session.refreshToken } })).status).toBe(204);
    expect((await refresh(session.refreshToken)).status).toBe(401);
  });

  it('refuses garbage, other token kinds and validates the grant', async () => {
    expect((await refresh('tsr_rt_' + 'A'.repeat(43))).status).toBe(401);
    expect((await refresh('not-a-token')).status).toBe(401);
    const bad = await http.request('POST', '/v1/auth/token', { body: { grant_type: 'password', username: 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'validation_failed' });
  });

  it('a refresh token expires', async () => {
    const session = await login(http, clock, tenant.admin.email);
    clock.advance(31 * 86_400);
    expect((await refresh(session.refreshToken)).status).toBe(401);
  });
});
