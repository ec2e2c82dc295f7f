/**
 * `POST /v1/me/password` against a parallel change: the current password the request checked
 * is stale by the time it writes, so it is refused like a wrong one, and the other change stands.
 * The parallel change is run just before the request's own transaction.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashPassword } from '../../shared/crypto/passwords';
import { keys } from '../../shared/store/keys';
import type { TransactItem } from '../../shared/store/table-client';
import type { UserRecord } from '../../shared/store/records';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, identityAuditEvents, login, PASSWORD, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
const PARALLEL = 'the password set by the other request';

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

describe('change password against a parallel change', () => {
  it('loses to a change that lands first: 401, and the other password stands', async () => {
    const { accessToken } = await login(http, clock, tenant.admin.email);
    const userKey = keys.user(tenant.tenantId, tenant.admin.id);
    const parallelHash = await hashPassword(PARALLEL);
    const table = host.deps.table;
    const send = table.transact.bind(table);
    vi.spyOn(table, 'transact').mockImplementationOnce(async (items: TransactItem[]) => {
      await table.update({ Key: userKey, UpdateExpression: 'SET password_hash = :hash', ExpressionAttributeValues: { ':hash': parallelHash } });
      return send(items);
    });
    const res = await http.request('POST', '/v1/me/password', { token: accessToken, body: { current_password: PASSWORD, new_password: 'the password this request wanted' } });
    expect(res.status, JSON.stringify(res.body)).toBe(401);
    expect(res.body).toMatchObject({ code: 'invalid_credentials' });
    expect((await table.get<UserRecord>(userKey))?.password_hash).toBe(parallelHash);
    expect((await identityAuditEvents(host.deps, tenant.tenantId)).filter((e) => e.action === 'password_changed')).toHaveLength(0);
    // The session was not ended by the refused change.
    expect((await http.request('GET', '/v1/me', { token: accessToken })).status).toBe(200);
    expect((await http.request('POST', '/v1/auth/login', { body: { email: tenant.admin.email, password: PARALLEL } })).status).toBe(200);
  });
});
