/**
 * GET /v1/connections/{id} reads the connection in the same round trip as the caller's user
 * record (`readEndpoint`): the read starts before the user, the session and the permission have
 * been checked. Every refusal must stay what it was, and must not depend on the connection:
 * a refused caller gets the same answer for a connection that exists and for an id that does not.
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

/** The caller is refused with `status` and `code`, word for word alike for the connection and for an unknown id. */
async function expectRefusedAlike(token: string, status: number, code: string): Promise<void> {
  const existing: HttpResponse = await read(token, connectionId);
  const unknown: HttpResponse = await read(token, MISSING);
  expect(existing.status, JSON.stringify(existing.body)).toBe(status);
  expect(existing.body).toMatchObject({ status, code });
  expect(withoutRequestId(existing.body)).toEqual(withoutRequestId(unknown.body));
  expect(unknown.status).toBe(status);
  expect(JSON.stringify(existing.body)).not.toContain(connectionName);
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

describe('TableClient.getMany, the read beneath', () => {
  it('answers the items in the order of the keys, undefined for a missing one, a key given twice read once', async () => {
    const user = keys.user(tenant.tenantId, tenant.admin.id);
    const connection = keys.connection(tenant.tenantId, tenant.workspaceId, connectionId);
    const missing = keys.connection(tenant.tenantId, tenant.workspaceId, MISSING);
    const [a, b, c, d] = await host.deps.table.getMany<[{ id: string }, { name: string }, unknown, { id: string }]>([user, connection, missing, user]);
    expect(a).toMatchObject({ id: tenant.admin.id });
    expect(b).toMatchObject({ name: connectionName });
    expect(b).not.toHaveProperty('PK');
    expect(c).toBeUndefined();
    expect(d).toEqual(a);
    expect(await host.deps.table.getMany([missing, missing])).toEqual([undefined, undefined]);
  });
});
