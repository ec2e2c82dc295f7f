/**
 * Workspace ownership transfer against parallel requests: the new owner disabled meanwhile,
 * another transfer landing first. The parallel request is run just before the transfer's own
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

async function newWorkspace(): Promise<string> {
  const res = await http.request('POST', '/v1/workspaces', { token: adminToken, body: { name: `ws ${++users}` } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { id: string }).id;
}
const newUser = (role = 'viewer') => createUser(http, adminToken, { email: `user${++users}@${tenant.domain}`, role });
const transfer = (workspaceId: string, newOwnerId: string) => http.request('POST', `/v1/workspaces/${workspaceId}/owner-transfer`, { token: adminToken, body: { new_owner_id: newOwnerId } });
const ownerOf = async (workspaceId: string) => {
  const list = (await http.request('GET', '/v1/workspaces?limit=100', { token: adminToken })).body as { workspaces: { id: string; owner_id: string }[] };
  return list.workspaces.find((w) => w.id === workspaceId)?.owner_id;
};
const transfers = async (workspaceId: string) => (await identityAuditEvents(host.deps, tenant.tenantId)).filter((e) => e.action === 'workspace_owner_transferred' && e.target_id === workspaceId);

describe('workspace ownership transfer against parallel requests', () => {
  it('a new owner disabled meanwhile is refused (400) and the owner stays', async () => {
    const ws = await newWorkspace();
    const candidate = await newUser();
    beforeNextTransaction(host.deps, async () => expect((await http.request('POST', `/v1/users/${candidate}/disable`, { token: adminToken })).status).toBe(200));
    const res = await transfer(ws, candidate);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', errors: [{ path: 'new_owner_id', message: 'must be an active user of the tenant' }] });
    expect(await ownerOf(ws)).toBe(tenant.admin.id);
    expect(await transfers(ws)).toHaveLength(0);
  });

  it('a transfer that another lands before is a 412: the other owner stands', async () => {
    const ws = await newWorkspace();
    const first = await newUser();
    const second = await newUser();
    beforeNextTransaction(host.deps, async () => expect((await transfer(ws, first)).status).toBe(200));
    const res = await transfer(ws, second);
    expect(res.status, JSON.stringify(res.body)).toBe(412);
    expect(res.body).toMatchObject({ code: 'precondition_failed', detail: 'The workspace changed meanwhile; try again' });
    expect(await ownerOf(ws)).toBe(first);
    expect((await transfers(ws)).map((e) => e.payload.new_owner_id)).toEqual([first]);
  });
});
