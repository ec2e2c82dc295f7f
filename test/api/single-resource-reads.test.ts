/**
 * The single-resource GETs (`readEndpoint`: a connection, a user, the MFA policy, /v1/me) read
 * their item in the same round trip as the caller's user record: the read starts before the
 * user, the session and the permission have been checked. Every refusal must stay what it was,
 * and must not depend on the item: a refused caller gets the same answer for an item that
 * exists and for one that does not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../shared/store/keys';
import { api, type HttpClient, type HttpResponse } from '../support/http-client';
import { createTestTenant, createUser, login, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

const MISSING = 'conn_00000000000000000000000000';

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
let adminToken: string;
/** A connection of the tenant's first workspace. */
let connectionId: string;
let connectionName: string;

const read = (token: string | undefined, id: string) => http.request('GET', `/v1/connections/${id}`, token === undefined ? {} : { token });
const withoutRequestId = (body: unknown) => Object.fromEntries(Object.entries(body as Record<string, unknown>).filter(([name]) => name !== 'request_id'));

/** The caller is refused with `status` and `code`, word for word alike for an existing path and a path of nothing. */
async function expectPathsRefusedAlike(token: string, existingPath: string, unknownPath: string, status: number, code: string): Promise<void> {
  const existing: HttpResponse = await http.request('GET', existingPath, { token });
  const unknown: HttpResponse = await http.request('GET', unknownPath, { token });
  expect(existing.status, JSON.stringify(existing.body)).toBe(status);
  expect(existing.body).toMatchObject({ status, code });
  expect(withoutRequestId(existing.body)).toEqual(withoutRequestId(unknown.body));
  expect(unknown.status).toBe(status);
}

/** The same for the connection and an unknown connection id; its name shows nowhere. */
async function expectRefusedAlike(token: string, status: number, code: string): Promise<void> {
  await expectPathsRefusedAlike(token, `/v1/connections/${connectionId}`, `/v1/connections/${MISSING}`, status, code);
  expect((await read(token, connectionId)).text).not.toContain(connectionName);
}

async function newUser(role = 'viewer'): Promise<{ id: string; email: string; token: string }> {
  const email = `reader-${Math.random().toString(36).slice(2, 10)}@${tenant.domain}`;
  const id = await createUser(http, adminToken, { email, role });
  return { id, email, token: (await login(http, clock, email)).accessToken };
}

async function createPat(token: string, scopes: string[]): Promise<string> {
  const res = await http.request('POST', '/v1/tokens', { token, body: { name: `pat ${scopes.join(' ')}`, scopes } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { token: string }).token;
}

beforeAll(async () => {
  host = await startTestHost({ clock });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
  const catalog = ((await http.request('GET', '/v1/integrations', { token: adminToken })).body as { integrations: { integration_id: string; configuration_schema: { examples: unknown[] }; scope_schema: { examples: unknown[] } }[] }).integrations;
  const integration = catalog[0]!;
  connectionName = `read-access ${Math.random().toString(36).slice(2, 8)}`;
  const created = await http.request('POST', '/v1/connections', {
    token: adminToken,
    body: { integration_id: integration.integration_id, name: connectionName, scope: integration.scope_schema.examples[0], schedule: { type: 'daily', hour: 1, minute: 0 }, configuration: integration.configuration_schema.examples[0] },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  connectionId = (created.body as { connection_id: string }).connection_id;
});
afterAll(() => host?.close());

describe('GET /v1/connections/{id} with the read in the same round trip as the user record', () => {
  it('answers the connection and its ETag to a caller of its workspace, by access token and by PAT', async () => {
    const viewer = await newUser();
    const pat = await createPat(viewer.token, ['connections:read']);
    for (const token of [viewer.token, pat]) {
      const res = await read(token, connectionId);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ connection_id: connectionId, name: connectionName, tenant_id: tenant.tenantId, workspace_id: tenant.workspaceId });
      expect(res.headers.etag).toMatch(/^"v\d+"$/);
      expect(JSON.stringify(res.body)).not.toContain('configuration_encrypted');
    }
  });

  it('an unknown id is 404 not_found', async () => {
    const res = await read(adminToken, MISSING);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'not_found' });
  });

  it('a connection of another workspace of the tenant is 404, word for word as an unknown id', async () => {
    const ws = await http.request('POST', '/v1/workspaces', { token: adminToken, body: { name: `Elsewhere ${Math.random().toString(36).slice(2, 6)}` } });
    expect(ws.status, JSON.stringify(ws.body)).toBe(201);
    const session = await login(http, clock, tenant.admin.email);
    const switched = await http.request('POST', '/v1/auth/token', { body: { grant_type: 'refresh_token', refresh_token: session.refreshToken, workspace_id: (ws.body as { id: string }).id } });
    expect(switched.status, JSON.stringify(switched.body)).toBe(200);
    await expectRefusedAlike((switched.body as { access_token: string }).access_token, 404, 'not_found');
  });

  it('a connection of another tenant is 404, word for word as an unknown id', async () => {
    const other = await createTestTenant(host.deps, { mfaMode: 'OFF' });
    await expectRefusedAlike((await login(http, clock, other.admin.email)).accessToken, 404, 'not_found');
  });

  it('a PAT without connections:read is 403 for the connection and an unknown id alike', async () => {
    const viewer = await newUser();
    await expectRefusedAlike(await createPat(viewer.token, ['users:read']), 403, 'forbidden');
  });

  it('a user whose role in the workspace is gone is 403 alike, though the access token still lists connections:read', async () => {
    const viewer = await newUser();
    // What a role change elsewhere leaves: no role in this workspace (written directly: no endpoint removes the last one).
    await host.deps.table.update({ Key: keys.user(tenant.tenantId, viewer.id), UpdateExpression: 'REMOVE #roles.#ws', ExpressionAttributeNames: { '#roles': 'roles', '#ws': tenant.workspaceId } });
    await expectRefusedAlike(viewer.token, 403, 'forbidden');
  });

  it('a disabled user is 401 alike, by access token and by PAT', async () => {
    const viewer = await newUser();
    const pat = await createPat(viewer.token, ['connections:read']);
    expect((await read(pat, connectionId)).status).toBe(200);
    const disabled = await http.request('POST', `/v1/users/${viewer.id}/disable`, { token: adminToken });
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
    await expectRefusedAlike(viewer.token, 401, 'unauthenticated');
    await expectRefusedAlike(pat, 401, 'unauthenticated');
  });

  it('the access token of a session ended by logout is 401 alike', async () => {
    const viewer = await newUser();
    const session = await login(http, clock, viewer.email);
    expect((await read(session.accessToken, connectionId)).status).toBe(200);
    expect((await http.request('POST', '/v1/auth/logout', { body: { refresh_token: session.refreshToken } })).status).toBe(204);
    await expectRefusedAlike(session.accessToken, 401, 'unauthenticated');
  });

  it('a malformed id: 401 without a credential, 400 with one (the access checks come first)', async () => {
    const anonymous = await read(undefined, 'not-a-connection-id');
    expect(anonymous.status).toBe(401);
    const res = await read(adminToken, 'not-a-connection-id');
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed' });
  });
});

describe('GET /v1/users/{id}, GET /v1/tenants/{id}/mfa-policy and GET /v1/me, read the same way', () => {
  const MISSING_USER = 'usr_00000000000000000000000000';

  it('answer the user, the policy and the caller', async () => {
    const viewer = await newUser();
    const user = await http.request('GET', `/v1/users/${viewer.id}`, { token: adminToken });
    expect(user.status, JSON.stringify(user.body)).toBe(200);
    expect(user.body).toMatchObject({ id: viewer.id, email: viewer.email });
    const policy = await http.request('GET', `/v1/tenants/${tenant.tenantId}/mfa-policy`, { token: adminToken });
    expect(policy.status, JSON.stringify(policy.body)).toBe(200);
    expect(policy.body).toMatchObject({ tenant_id: tenant.tenantId, mfa_mode: 'OFF' });
    const me = await http.request('GET', '/v1/me', { token: viewer.token });
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    expect(me.body).toMatchObject({ id: viewer.id, email: viewer.email, workspace_id: tenant.workspaceId, role: 'viewer', tenant_admin: false });
    expect((me.body as { permissions: string[] }).permissions).toContain('connections:read');
  });

  it('a user of another tenant is 404 like an unknown id; the policy of another tenant is 403 like an unknown tenant', async () => {
    const other = await createTestTenant(host.deps, { mfaMode: 'OFF' });
    const otherAdmin = (await login(http, clock, other.admin.email)).accessToken;
    await expectPathsRefusedAlike(otherAdmin, `/v1/users/${tenant.admin.id}`, `/v1/users/${MISSING_USER}`, 404, 'not_found');
    await expectPathsRefusedAlike(otherAdmin, `/v1/tenants/${tenant.tenantId}/mfa-policy`, '/v1/tenants/ten_00000000000000000000000000/mfa-policy', 403, 'forbidden');
  });

  it('without the permission (a PAT without users:read, a viewer for the policy) is 403 alike', async () => {
    const viewer = await newUser();
    const pat = await createPat(viewer.token, ['connections:read']);
    await expectPathsRefusedAlike(pat, `/v1/users/${tenant.admin.id}`, `/v1/users/${MISSING_USER}`, 403, 'forbidden');
    await expectPathsRefusedAlike(viewer.token, `/v1/tenants/${tenant.tenantId}/mfa-policy`, '/v1/tenants/ten_00000000000000000000000000/mfa-policy', 403, 'forbidden');
  });

  it('a disabled user is 401 alike, and /v1/me is 401 for them', async () => {
    const viewer = await newUser();
    expect((await http.request('POST', `/v1/users/${viewer.id}/disable`, { token: adminToken })).status).toBe(200);
    await expectPathsRefusedAlike(viewer.token, `/v1/users/${tenant.admin.id}`, `/v1/users/${MISSING_USER}`, 401, 'unauthenticated');
    const me = await http.request('GET', '/v1/me', { token: viewer.token });
    expect(me.status).toBe(401);
    expect(me.body).toMatchObject({ code: 'unauthenticated' });
  });
});

describe('TableClient.getItems, the read beneath', () => {
  it('answers each item by its key, undefined for a missing one, a key given twice read once, one key alone too', async () => {
    const user = keys.user(tenant.tenantId, tenant.admin.id);
    const connection = keys.connection(tenant.tenantId, tenant.workspaceId, connectionId);
    const missing = keys.connection(tenant.tenantId, tenant.workspaceId, MISSING);
    const found = await host.deps.table.getItems([user, connection, missing, user]);
    expect(found.get<{ id: string }>(user)).toMatchObject({ id: tenant.admin.id });
    expect(found.get<{ name: string }>(connection)).toMatchObject({ name: connectionName });
    expect(found.get(connection)).not.toHaveProperty('PK');
    expect(found.get(missing)).toBeUndefined();
    expect((await host.deps.table.getItems([missing, missing])).get(missing)).toBeUndefined();
    expect((await host.deps.table.getItems([user, user])).get<{ id: string }>(user)).toMatchObject({ id: tenant.admin.id });
  });
});
