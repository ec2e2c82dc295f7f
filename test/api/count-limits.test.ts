/**
 * API.md, Errors: 409 `limit_exceeded` when a count limit is reached: 50 active PATs per user
 * (revoked and expired ones do not count), 1000 connections per workspace, 1000 workspaces per
 * tenant. Each count moves in the transaction that creates (or deletes) what it counts, so
 * racing creations never pass it; a refused creation writes nothing. The PAT limit is reached
 * through the API; the two counters of 1000 are seeded in the table near their limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countLimits } from '../../shared/store/item-counts';
import { keys } from '../../shared/store/keys';
import { api, type HttpClient, type HttpResponse } from '../support/http-client';
import { createTestTenant, login, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
let token: string;

beforeAll(async () => {
  host = await startTestHost({ clock, env: { TESSERA_RATE_AUTH_IP_REQUESTS: '100000' } });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  token = (await login(http, clock, tenant.admin.email)).accessToken;
});
afterAll(() => host?.close());

function expectLimit(res: HttpResponse, what: string) {
  expect(res.status, `${what}: ${res.text}`).toBe(409);
  expect(res.headers['content-type']).toContain('application/problem+json');
  expect(res.body, what).toMatchObject({ code: 'limit_exceeded', status: 409, title: 'Limit exceeded' });
}

const counterOf = async (key: { PK: string; SK: string }) => ((await host.deps.table.get<{ count?: number }>(key))?.count);
const seedCounter = (key: { PK: string; SK: string }, count: number) => host.deps.table.put({ Item: { ...key, count } });

describe('personal access tokens: 50 active per user', () => {
  const createToken = (name: string, expiresInDays = 90) => http.request('POST', '/v1/tokens', { token, body: { name, scopes: ['users:read'], expires_in_days: expiresInDays } });
  const activeTokens = async () => {
    const listed = (await http.request('GET', '/v1/tokens?limit=100', { token })).body as { tokens: { id: string; name: string; revoked_at: string | null; expires_at: string }[] };
    return listed.tokens.filter((t) => !t.revoked_at && Date.parse(t.expires_at) > clock.now().getTime());
  };

  it('refuses the 51st, takes one again after a revocation or an expiry, and a rotation takes no place', async () => {
    const limit = countLimits.personalAccessTokensPerUser;
    expect(limit).toBe(50);
    const shortLived = await createToken('expires tomorrow', 1);
    expect(shortLived.status).toBe(201);
    for (let i = 1; i < limit; i++) expect((await createToken(`token ${i}`)).status, `token ${i}`).toBe(201);
    expect(await activeTokens()).toHaveLength(limit);

    expectLimit(await createToken('one too many'), 'the 51st');
    expect((await activeTokens()).map((t) => t.name)).not.toContain('one too many');

    const [first, second] = await activeTokens();
    const rotated = await http.request('POST', `/v1/tokens/${first!.id}/rotate`, { token });
    expect(rotated.status, 'a rotation replaces a token: it needs no place of its own').toBe(201);
    expectLimit(await createToken('still too many'), 'after the rotation');

    expect((await http.request('DELETE', `/v1/tokens/${second!.id}`, { token })).status).toBe(204);
    expect((await createToken('in the revoked one\'s place')).status).toBe(201);
    expectLimit(await createToken('full again'), 'full again');

    // A day and a half later the short-lived token has expired, and no longer counts.
    clock.advance(36 * 3600);
    token = (await login(http, clock, tenant.admin.email)).accessToken;
    expect(await activeTokens()).toHaveLength(limit - 1);
    expect((await createToken('in the expired one\'s place')).status).toBe(201);
    expectLimit(await createToken('full once more'), 'full once more');
  });

  it('of creations racing for the last place, exactly one gets it', async () => {
    const [oldest] = (await activeTokens()).slice(-1);
    expect((await http.request('DELETE', `/v1/tokens/${oldest!.id}`, { token })).status).toBe(204);
    const answers = await Promise.all([1, 2, 3, 4, 5].map((i) => createToken(`racer ${i}`)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(await activeTokens()).toHaveLength(countLimits.personalAccessTokensPerUser);
  });
});

describe('workspaces: 1000 per tenant', () => {
  const createWorkspace = (name: string) => http.request('POST', '/v1/workspaces', { token, body: { name } });
  const workspaceNames = async () => ((await http.request('GET', '/v1/workspaces?limit=100', { token })).body as { workspaces: { name: string }[] }).workspaces.map((w) => w.name);

  it('a tenant starts counting its first workspace; the 1001st is refused and nothing is written', async () => {
    const fresh = await createTestTenant(host.deps, { mfaMode: 'OFF' });
    expect(await counterOf(keys.workspaceCount(fresh.tenantId)), 'the tenant\'s first workspace is counted').toBe(1);

    const limit = countLimits.workspacesPerTenant;
    await seedCounter(keys.workspaceCount(tenant.tenantId), limit - 1);
    expect((await createWorkspace('the thousandth')).status).toBe(201);
    expect(await counterOf(keys.workspaceCount(tenant.tenantId))).toBe(limit);
    const before = await workspaceNames();
    expectLimit(await createWorkspace('the 1001st'), 'the 1001st workspace');
    expect(await workspaceNames()).toEqual(before);
    const admin = await host.deps.table.get<{ roles: Record<string, string> }>(keys.user(tenant.tenantId, tenant.admin.id));
    expect(Object.keys(admin!.roles), 'the creator gained no role in a workspace that was not made').toHaveLength(before.length);
  });

  it('of creations racing for the last two places, exactly two get them', async () => {
    await seedCounter(keys.workspaceCount(tenant.tenantId), countLimits.workspacesPerTenant - 2);
    const answers = await Promise.all([1, 2, 3, 4, 5].map((i) => createWorkspace(`racer ${i}`)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 409, 409, 409]);
    expect(await counterOf(keys.workspaceCount(tenant.tenantId))).toBe(countLimits.workspacesPerTenant);
    expect((await workspaceNames()).filter((n) => n.startsWith('racer '))).toHaveLength(2);
  });
});

describe('connections: 1000 per workspace', () => {
  type Integration = { integration_id: string; configuration_schema: { examples: Record<string, unknown>[] }; scope_schema: { examples: Record<string, unknown>[] } };
  let integration: Integration;
  const createConnection = (name: string, headers: Record<string, string> = {}) =>
    http.request('POST', '/v1/connections', {
      token, headers,
      body: { integration_id: integration.integration_id, name, scope: integration.scope_schema.examples[0], schedule: { type: 'daily', hour: 3, minute: 0 }, configuration: integration.configuration_schema.examples[0] },
    });
  const connectionNames = async () => ((await http.request('GET', '/v1/connections?limit=100', { token })).body as { connections: { name: string }[] }).connections.map((c) => c.name);
  const counter = () => keys.connectionCount(tenant.tenantId, tenant.workspaceId);

  beforeAll(async () => {
    integration = ((await http.request('GET', '/v1/integrations', { token })).body as { integrations: Integration[] }).integrations[0]!;
  });

  it('counts creations and deletions, and refuses the 1001st (with an Idempotency-Key too), writing nothing', async () => {
    const made = await createConnection('counted');
    expect(made.status, made.text).toBe(201);
    expect(await counterOf(counter())).toBe(1);
    expect((await http.request('DELETE', `/v1/connections/${(made.body as { connection_id: string }).connection_id}`, { token })).status).toBe(204);
    expect(await counterOf(counter())).toBe(0);

    const limit = countLimits.connectionsPerWorkspace;
    await seedCounter(counter(), limit - 1);
    const last = await createConnection('the thousandth');
    expect(last.status, last.text).toBe(201);
    const before = await connectionNames();
    expectLimit(await createConnection('the 1001st'), 'the 1001st connection');
    expectLimit(await createConnection('the 1001st, keyed', { 'idempotency-key': 'limit-probe-1' }), 'with an Idempotency-Key');
    expect(await connectionNames()).toEqual(before);
    expect(await counterOf(counter())).toBe(limit);

    // A deletion makes room again.
    expect((await http.request('DELETE', `/v1/connections/${(last.body as { connection_id: string }).connection_id}`, { token })).status).toBe(204);
    const again = await createConnection('the 1001st, keyed', { 'idempotency-key': 'limit-probe-1' });
    expect(again.status, `the key was freed by the refusal: ${again.text}`).toBe(201);
  });

  it('of creations racing for the last place, exactly one gets it', async () => {
    await seedCounter(counter(), countLimits.connectionsPerWorkspace - 1);
    const answers = await Promise.all([1, 2, 3, 4].map((i) => createConnection(`racer ${i}`)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
    for (const refused of answers.filter((a) => a.status === 409)) expect(refused.body).toMatchObject({ code: 'limit_exceeded' });
    expect((await connectionNames()).filter((n) => n.startsWith('racer '))).toHaveLength(1);
  });
});
