/**
 * Two sessions of one user logged out at once: each logout rewrites the user's map of ended
 * sessions over the map it read, so the one that lands second reads again and writes both.
 * The other logout is run just before the first one's write.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;

beforeAll(async () => {
  host = await startTestHost({ clock });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
});
afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(async () => {
  await host?.close();
});

const logout = (refreshToken: string) => http.request('POST', '/v1/auth/logout', { body: { refresh_token: refreshToken } });
const me = (accessToken: string) => http.request('GET', '/v1/me', { token: accessToken });

describe('logout of two sessions at once', () => {
  it('both sessions end: the logout that loses the write reads again and keeps the other\'s mark', async () => {
    const first = await login(http, clock, tenant.admin.email);
    const second = await login(http, clock, tenant.admin.email);
    const untouched = await login(http, clock, tenant.admin.email);
    const table = host.deps.table;
    const update = table.update.bind(table);
    let raced = false;
    vi.spyOn(table, 'update').mockImplementation(async (input: Omit<UpdateCommandInput, 'TableName'>) => {
      // The first write of the ended-sessions map: the other logout lands just before it.
      if (!raced && input.UpdateExpression === 'SET revoked_sessions = :next') {
        raced = true;
        expect((await logout(second.refreshToken)).status).toBe(204);
      }
      return update(input);
    });
    expect((await logout(first.refreshToken)).status).toBe(204);
    expect(raced).toBe(true);
    expect((await me(first.accessToken)).status).toBe(401);
    expect((await me(second.accessToken)).status).toBe(401);
    expect((await me(untouched.accessToken)).status).toBe(200);
  });
});
