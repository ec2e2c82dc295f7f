/**
 * Personal access tokens against parallel requests: revoking twice (one after the other, or
 * the second landing just before the first writes), rotating a token revoked meanwhile, and
 * the first use of a token audited once when two requests use it at once. The parallel
 * request is run just before the request's own transaction.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, identityAuditEvents, login, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';
import { beforeNextTransaction } from '../support/races';

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
let accessToken: string;
let tokens = 0;

beforeAll(async () => {
  host = await startTestHost({ clock });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  accessToken = (await login(http, clock, tenant.admin.email)).accessToken;
});
afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(async () => {
  await host?.close();
});

async function createToken(): Promise<{ id: string; token: string }> {
  const res = await http.request('POST', '/v1/tokens', { token: accessToken, body: { name: `token ${++tokens}`, scopes: ['connections:read'] } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; token: string };
}

const revoke = (id: string) => http.request('DELETE', `/v1/tokens/${id}`, { token: accessToken });

async function eventsOf(action: string, targetId: string) {
  return (await identityAuditEvents(host.deps, tenant.tenantId)).filter((e) => e.action === action && e.target_id === targetId);
}

describe('personal access tokens against parallel requests', () => {
  it('revoking twice is harmless: 204 both times, audited once', async () => {
    const { id, token } = await createToken();
    expect((await revoke(id)).status).toBe(204);
    expect((await revoke(id)).status).toBe(204);
    expect(await eventsOf('token_revoked', id)).toHaveLength(1);
    expect((await http.request('GET', '/v1/connections', { token })).status).toBe(401);
  });

  it('a revocation that lands just before another is the one audited; both answer 204', async () => {
    const { id, token } = await createToken();
    beforeNextTransaction(host.deps, async () => expect((await revoke(id)).status).toBe(204));
    expect((await revoke(id)).status).toBe(204);
    expect(await eventsOf('token_revoked', id)).toHaveLength(1);
    expect((await http.request('GET', '/v1/connections', { token })).status).toBe(401);
  });

  it('rotating a token revoked meanwhile is a 404 that makes no new token', async () => {
    const { id } = await createToken();
    beforeNextTransaction(host.deps, async () => expect((await revoke(id)).status).toBe(204));
    const res = await http.request('POST', `/v1/tokens/${id}/rotate`, { token: accessToken });
    expect(res.status, JSON.stringify(res.body)).toBe(404);
    expect(res.body).toMatchObject({ code: 'not_found' });
    expect((await identityAuditEvents(host.deps, tenant.tenantId)).filter((e) => e.action === 'token_rotated' && (e.payload as { replaces?: string }).replaces === id)).toHaveLength(0);
    const list = (await http.request('GET', '/v1/tokens', { token: accessToken })).body as { tokens: { name: string }[] };
    expect(list.tokens.filter((t) => t.name === `token ${tokens}`)).toHaveLength(1);
  });

  it('the first use of a token by two requests at once is audited once; both are served', async () => {
    const { id, token } = await createToken();
    beforeNextTransaction(host.deps, async () => expect((await http.request('GET', '/v1/connections', { token })).status).toBe(200));
    expect((await http.request('GET', '/v1/connections', { token })).status).toBe(200);
    expect(await eventsOf('token_used', id)).toHaveLength(1);
  });
});
