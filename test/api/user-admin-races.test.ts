/**
 * User administration against parallel requests: a user changed by another admin between the
 * read and the write (412, the other change stands), enabled twice at once (one event), and
 * disabled again (nothing new). The parallel request is run just before the request's own
 * transaction.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, identityAuditEvents, login, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';
import { beforeNextTransaction } from '../support/races';

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
let adminToken: string;
let users = 0;

beforeAll(async () => {
  host = await startTestHost({ clock });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
});
afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(async () => {
  await host?.close();
});

const newUser = () => createUser(http, adminToken, { email: `user${++users}@${tenant.domain}`, role: 'viewer' });
const getUser = async (id: string) => (await http.request('GET', `/v1/users/${id}`, { token: adminToken })).body as { role: string; username: string | null; status: string };
const eventsOf = async (action: string, id: string) => (await identityAuditEvents(host.deps, tenant.tenantId)).filter((e) => e.action === action && e.target_id === id);

describe('user administration against parallel requests', () => {
  it('a change that another admin overtakes is a 412: the other change stands, nothing of this one is written', async () => {
    const id = await newUser();
    beforeNextTransaction(host.deps, async () => {
      const other = await http.request('PATCH', `/v1/users/${id}`, { token: adminToken, body: { role: 'admin' } });
      expect(other.status, JSON.stringify(other.body)).toBe(200);
    });
    const res = await http.request('PATCH', `/v1/users/${id}`, { token: adminToken, body: { username: `late-${users}` } });
    expect(res.status, JSON.stringify(res.body)).toBe(412);
    expect(res.body).toMatchObject({ code: 'precondition_failed', detail: 'The user changed meanwhile; try again' });
    expect(await getUser(id)).toMatchObject({ role: 'admin', username: null });
    // The username stayed free: another user may take it.
    const taker = await newUser();
    expect((await http.request('PATCH', `/v1/users/${taker}`, { token: adminToken, body: { username: `late-${users - 1}` } })).status).toBe(200);
  });

  it('enabling a user another admin enables meanwhile answers the user as it is, audited once', async () => {
    const id = await newUser();
    expect((await http.request('POST', `/v1/users/${id}/disable`, { token: adminToken })).status).toBe(200);
    beforeNextTransaction(host.deps, async () => expect((await http.request('POST', `/v1/users/${id}/enable`, { token: adminToken })).status).toBe(200));
    const res = await http.request('POST', `/v1/users/${id}/enable`, { token: adminToken });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id, status: 'active' });
    expect(await eventsOf('user_enabled', id)).toHaveLength(1);
  });

  it('disabling a disabled user changes nothing and is not audited again', async () => {
    const id = await newUser();
    expect((await http.request('POST', `/v1/users/${id}/disable`, { token: adminToken })).status).toBe(200);
    const again = await http.request('POST', `/v1/users/${id}/disable`, { token: adminToken });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toMatchObject({ id, status: 'disabled' });
    expect(await eventsOf('user_disabled', id)).toHaveLength(1);
  });
});
