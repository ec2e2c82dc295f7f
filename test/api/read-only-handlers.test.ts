/**
 * The handlers of `tableReadOnlyHandlers` (infra/handler-capabilities.ts), whose roles get no
 * DynamoDB write action, really never write: each one's routes are called through the local
 * host, on data that makes them read something, while every write of the one DynamoDB item
 * client (`ItemCalls`: Put, Update, Delete, TransactWrite, BatchWrite) is refused and recorded.
 * Each must answer as it normally does, and nothing may have tried to write. The handlers of
 * `tableFreeHandlers`, whose roles get no DynamoDB action at all, answer with reads refused too.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { routeList } from '../../functions/routes';
import { tableFreeHandlers, tableReadOnlyHandlers } from '../../infra/handler-capabilities';
import { ItemCalls } from '../../shared/store/item-calls';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { buildOrg, oktaToken, oktaUser, startFakeOkta, type FakeOkta } from '../../infra/local/stand-ins/okta';
import { runToEnd, type RunBody } from '../support/runs';
import { startTestHost, type TestHost } from '../support/test-host';

const WRITES = ['put', 'update', 'delete', 'transactWrite', 'batchWrite'] as const;
const READS = ['get', 'query', 'batchGet'] as const;

let okta: FakeOkta;
let host: TestHost;
let http: HttpClient;
let tenant: TestTenant;
let token: string;
let connectionId: string;
let run: RunBody;
let entityId: string;
let personId: string;
const clock = new MovableClock();
const attemptedWrites: string[] = [];

/** A request to each read-only handler's route, on data that exists; the answer it normally gives. */
const requests = (): Record<string, { path: string; token?: string; status: number }> => ({
  'access-changes-list': { path: '/v1/access-changes', token, status: 200 },
  'audit-events-list': { path: '/v1/audit-events', token, status: 200 },
  'connection-entities-list': { path: `/v1/connections/${connectionId}/entities`, token, status: 200 },
  'connection-entity-get': { path: `/v1/connections/${connectionId}/entities/${entityId}`, token, status: 200 },
  'connection-relationships-list': { path: `/v1/connections/${connectionId}/relationships?entity_id=${entityId}`, token, status: 200 },
  'connection-run-changes-list': { path: `/v1/connections/${connectionId}/runs/${run.run_id}/changes`, token, status: 200 },
  'connection-runs-get': { path: `/v1/connections/${connectionId}/runs/${run.run_id}`, token, status: 200 },
  'connection-runs-list': { path: `/v1/connections/${connectionId}/runs`, token, status: 200 },
  'connection-tests-list': { path: `/v1/connections/${connectionId}/tests`, token, status: 200 },
  'connections-get': { path: `/v1/connections/${connectionId}`, token, status: 200 },
  'connections-list': { path: '/v1/connections', token, status: 200 },
  'domains-list': { path: `/v1/tenants/${tenant.tenantId}/domains`, token, status: 200 },
  'entity-access-list': { path: `/v1/connections/${connectionId}/entities/${entityId}/access`, token, status: 200 },
  health: { path: '/v1/health', status: 200 },
  // No IdP is configured: the read finds none (configuring one needs a live OIDC issuer).
  'idp-get': { path: `/v1/tenants/${tenant.tenantId}/idp`, token, status: 404 },
  'integrations-list': { path: '/v1/integrations', token, status: 200 },
  jwks: { path: '/v1/.well-known/jwks.json', status: 200 },
  'me-federated-identities-list': { path: '/v1/me/federated-identities', token, status: 200 },
  'me-get': { path: '/v1/me', token, status: 200 },
  'mfa-policy-get': { path: `/v1/tenants/${tenant.tenantId}/mfa-policy`, token, status: 200 },
  openapi: { path: '/v1/openapi.json', status: 200 },
  'people-get': { path: `/v1/people/${personId}`, token, status: 200 },
  'people-list': { path: '/v1/people', token, status: 200 },
  'permissions-list': { path: '/v1/permissions', token, status: 200 },
  'person-access-list': { path: `/v1/people/${personId}/access`, token, status: 200 },
  'sso-metadata': { path: `/v1/auth/sso/${tenant.slug}/metadata`, status: 200 },
  'tenant-audit-events-list': { path: `/v1/tenants/${tenant.tenantId}/audit-events`, token, status: 200 },
  'tokens-list': { path: '/v1/tokens', token, status: 200 },
  'user-federated-identities-list': { path: `/v1/users/${tenant.admin.id}/federated-identities`, token, status: 200 },
  'users-get': { path: `/v1/users/${tenant.admin.id}`, token, status: 200 },
  'users-list': { path: '/v1/users', token, status: 200 },
  'workspaces-list': { path: '/v1/workspaces', token, status: 200 },
});

beforeAll(async () => {
  okta = await startFakeOkta({ org: buildOrg({ users: [oktaUser(1), oktaUser(2)], groups: [], members: {}, apps: [], appGroups: {} }) });
  host = await startTestHost({ clock, env: { TESSERA_CONNECTOR_ENDPOINTS: JSON.stringify({ okta: okta.url }) } });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  token = (await login(http, clock, tenant.admin.email)).accessToken;
  const created = await http.request('POST', '/v1/connections', {
    token,
    body: { integration_id: 'int_okta_discovery', name: 'okta', scope: {}, schedule: { type: 'daily', hour: 4, minute: 0 }, configuration: { org_url: 'https://tessera-test.okta.com', api_token: oktaToken } },
  });
  expect(created.status).toBe(201);
  connectionId = (created.body as { connection_id: string }).connection_id;
  expect((await http.request('POST', `/v1/connections/${connectionId}/test`, { token })).status).toBe(200);
  run = await runToEnd(http, host, token, connectionId);
  expect(run.status).toBe('succeeded');
  const entities = (await http.request('GET', `/v1/connections/${connectionId}/entities`, { token })).body as { entities: { entity_id: string }[] };
  entityId = entities.entities[0]!.entity_id;
  personId = ((await http.request('GET', '/v1/people', { token })).body as { people: { person_id: string }[] }).people[0]!.person_id;
  for (const method of WRITES) {
    vi.spyOn(ItemCalls.prototype, method).mockImplementation(() => {
      attemptedWrites.push(method);
      return Promise.reject(new Error(`a read-only handler tried ${method}`));
    });
  }
});
afterAll(async () => {
  vi.restoreAllMocks();
  await host?.close();
  await okta?.close();
});

describe('read-only handlers', () => {
  it('have a request here for each of them, and each serves only GET routes', () => {
    expect(Object.keys(requests()).sort()).toEqual([...tableReadOnlyHandlers].sort());
    for (const route of routeList.filter((r) => tableReadOnlyHandlers.has(r.handler))) expect(route.method, route.handler).toBe('GET');
  });

  for (const handler of tableReadOnlyHandlers) {
    it(`${handler} answers without writing`, async () => {
      const request = requests()[handler]!;
      attemptedWrites.length = 0;
      const res = await http.request('GET', request.path, request.token ? { token: request.token } : {});
      expect(res.status, res.text).toBe(request.status);
      expect(attemptedWrites).toEqual([]);
    });
  }

  it('route-not-found (table-free) answers a path no route has, and a method a path does not take, without any table call', async () => {
    expect([...tableFreeHandlers]).toEqual(['route-not-found']);
    const attemptedReads: string[] = [];
    const reads = READS.map((method) =>
      vi.spyOn(ItemCalls.prototype, method).mockImplementation(() => {
        attemptedReads.push(method);
        return Promise.reject(new Error(`a table-free handler tried ${method}`));
      }),
    );
    try {
      attemptedWrites.length = 0;
      const missing = await http.request('GET', '/v1/no-such-route', { token });
      expect(missing.status, missing.text).toBe(404);
      const wrongMethod = await http.request('DELETE', '/v1/users', { token });
      expect(wrongMethod.status, wrongMethod.text).toBe(405);
      expect([...attemptedReads, ...attemptedWrites]).toEqual([]);
      // The refusal is live: a route that reads fails while reads are refused.
      expect((await http.request('GET', '/v1/connections', { token })).status).toBe(500);
      expect(attemptedReads.length).toBeGreaterThan(0);
    } finally {
      for (const spy of reads) spy.mockRestore();
    }
  });

  it('refuses writes for real while they run (the check is not vacuous)', async () => {
    attemptedWrites.length = 0;
    const res = await http.request('PATCH', `/v1/connections/${connectionId}`, { token, body: { name: 'renamed' } });
    expect(res.status).toBe(500);
    expect(attemptedWrites.length).toBeGreaterThan(0);
  });
});
