/**
 * Who may start runs and read inventories: a viewer reads everything but cannot run; a
 * connector builder runs; a PAT runs only with the `connections:run` scope; another workspace
 * of the same tenant gets 404 on every run and inventory route; bad ids and cursors are 400.
 * Deleting a connection removes its inventory, runs and checkpoints, and its schedule.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchTick } from '../../shared/runs/dispatcher';
import { keys } from '../../shared/store/keys';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, login } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { buildOrg, oktaApp, oktaGroup, oktaToken, oktaUser, startFakeOkta, type FakeOkta } from '../../infra/local/stand-ins/okta';
import { runToEnd, type EntityBody } from '../support/runs';
import { startTestHost, type TestHost } from '../support/test-host';

let okta: FakeOkta;
let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
const tokens: Record<'admin' | 'builder' | 'viewer' | 'otherWorkspace', string> = { admin: '', builder: '', viewer: '', otherWorkspace: '' };
let tenantId = '';
let workspaceId = '';
let connectionId = '';
let runId = '';
let entityId = '';

beforeAll(async () => {
  okta = await startFakeOkta({
    org: buildOrg({ users: [oktaUser(1), oktaUser(2)], groups: [oktaGroup(1)], members: { [oktaGroup(1).id]: [oktaUser(1).id] }, apps: [oktaApp(1)], appGroups: { [oktaApp(1).id]: [oktaGroup(1).id] } }),
  });
  // One-second steps: the purge's second pass waits for a step's length after the deletion.
  host = await startTestHost({ clock, env: { TESSERA_CONNECTOR_ENDPOINTS: JSON.stringify({ okta: okta.url }), TESSERA_RUN_STEP_SECONDS: '1' } });
  http = api(host.url);
  const tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  tenantId = tenant.tenantId;
  workspaceId = tenant.workspaceId;
  tokens.admin = (await login(http, clock, tenant.admin.email)).accessToken;
  await createUser(http, tokens.admin, { email: `builder@${tenant.domain}`, role: 'connector_builder' });
  await createUser(http, tokens.admin, { email: `viewer@${tenant.domain}`, role: 'viewer' });
  tokens.builder = (await login(http, clock, `builder@${tenant.domain}`)).accessToken;
  tokens.viewer = (await login(http, clock, `viewer@${tenant.domain}`)).accessToken;
  const other = await http.request('POST', '/v1/workspaces', { token: tokens.admin, body: { name: 'other' } });
  expect(other.status).toBe(201);
  const otherWorkspace = (other.body as { id: string }).id;
  await createUser(http, tokens.admin, { email: `other@${tenant.domain}`, role: 'admin', workspace_id: otherWorkspace });
  tokens.otherWorkspace = (await login(http, clock, `other@${tenant.domain}`)).accessToken;

  const created = await http.request('POST', '/v1/connections', {
    token: tokens.admin,
    body: { integration_id: 'int_okta_discovery', name: 'okta', scope: {}, schedule: { type: 'daily', hour: 3, minute: 0 }, configuration: { org_url: 'https://tessera-test.okta.com', api_token: oktaToken } },
  });
  connectionId = (created.body as { connection_id: string }).connection_id;
  runId = (await runToEnd(http, host, tokens.admin, connectionId)).run_id;
  entityId = ((await http.request('GET', `/v1/connections/${connectionId}/entities`, { token: tokens.admin })).body as { entities: EntityBody[] }).entities[0]!.entity_id;
});
afterAll(async () => {
  await host?.close();
  await okta?.close();
});

const readRoutes = () => [
  `/v1/connections/${connectionId}/runs`,
  `/v1/connections/${connectionId}/runs/${runId}`,
  `/v1/connections/${connectionId}/runs/${runId}/changes`,
  `/v1/connections/${connectionId}/entities`,
  `/v1/connections/${connectionId}/relationships`,
  `/v1/connections/${connectionId}/relationships?entity_id=${entityId}`,
];

describe('run and inventory access', () => {
  it('a viewer reads runs, changes and the inventory but may not start a run', async () => {
    for (const path of readRoutes()) expect((await http.request('GET', path, { token: tokens.viewer })).status, path).toBe(200);
    const refused = await http.request('POST', `/v1/connections/${connectionId}/runs`, { token: tokens.viewer });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'forbidden' });
  });

  it('a connector builder starts runs; the audit log says who started it', async () => {
    const run = await runToEnd(http, host, tokens.builder, connectionId);
    expect(run.status).toBe('succeeded');
    const audit = (await http.request('GET', `/v1/audit-events?target_id=${connectionId}`, { token: tokens.admin })).body as { audit_events: { action: string; actor_id: string | null; payload: Record<string, unknown> }[] };
    const started = audit.audit_events.find((e) => e.action === 'connection_run_started' && e.payload.run_id === run.run_id);
    expect(started?.actor_id).toMatch(/^usr_/);
    expect(audit.audit_events.find((e) => e.action === 'connection_run_finished' && e.payload.run_id === run.run_id)).toMatchObject({ actor_id: null, payload: { status: 'succeeded' } });
  });

  it('another workspace of the same tenant finds none of it (404), and cannot start a run', async () => {
    for (const path of readRoutes()) {
      const res = await http.request('GET', path, { token: tokens.otherWorkspace });
      expect(res.status, path).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found' });
    }
    expect((await http.request('POST', `/v1/connections/${connectionId}/runs`, { token: tokens.otherWorkspace })).status).toBe(404);
  });

  it('a PAT starts runs only with the connections:run scope', async () => {
    const readOnly = await http.request('POST', '/v1/tokens', { token: tokens.builder, body: { name: 'read', scopes: ['connections:read'] } });
    const runner = await http.request('POST', '/v1/tokens', { token: tokens.builder, body: { name: 'run', scopes: ['connections:read', 'connections:run'] } });
    const readPat = (readOnly.body as { token: string }).token;
    const runPat = (runner.body as { token: string }).token;
    expect((await http.request('GET', `/v1/connections/${connectionId}/entities`, { token: readPat })).status).toBe(200);
    expect((await http.request('POST', `/v1/connections/${connectionId}/runs`, { token: readPat })).status).toBe(403);
    const started = await http.request('POST', `/v1/connections/${connectionId}/runs`, { token: runPat });
    expect(started.status).toBe(202);
    await host.runQueue.idle();
    // A viewer's PAT cannot carry connections:run at all: its creator does not hold it.
    const viewerPat = await http.request('POST', '/v1/tokens', { token: tokens.viewer, body: { name: 'run', scopes: ['connections:run'] } });
    expect(viewerPat.status).toBe(403);
  });

  it('no credential is 401; malformed ids, kinds and cursors are 400 with the field named', async () => {
    expect((await http.request('GET', `/v1/connections/${connectionId}/entities`)).status).toBe(401);
    const cases: [string, string][] = [
      [`/v1/connections/${connectionId}/runs/not-a-run`, 'run_id'],
      [`/v1/connections/${connectionId}/entities?kind=Person`, 'kind'],
      [`/v1/connections/${connectionId}/relationships?entity_id=usr_123`, 'entity_id'],
      [`/v1/connections/${connectionId}/entities?cursor=bm90LWEtY3Vyc29y`, 'cursor'],
      [`/v1/connections/${connectionId}/runs/${runId}/changes?cursor=e30`, 'cursor'],
      [`/v1/connections/${connectionId}/relationships?entity_id=${entityId}&cursor=eyJzIjo5fQ`, 'cursor'],
    ];
    for (const [path, field] of cases) {
      const res = await http.request('GET', path, { token: tokens.admin });
      expect(res.status, path).toBe(400);
      expect((res.body as { errors: { path: string }[] }).errors.map((e) => e.path), path).toContain(field);
    }
    expect((await http.request('GET', `/v1/connections/${connectionId}/runs/run_00000000000000000000000000`, { token: tokens.admin })).status).toBe(404);
  });

  it('deleting a connection removes its inventory, runs and checkpoints, and its schedule', async () => {
    const partitions = keys.inventoryPartitions(tenantId, workspaceId, connectionId).map((p) => p.PK);
    const count = async (pk: string, prefix?: string) =>
      (
        await host.documents.send(
          new QueryCommand({
            TableName: host.config.tableName,
            KeyConditionExpression: prefix ? 'PK = :pk AND begins_with(SK, :p)' : 'PK = :pk',
            ExpressionAttributeValues: { ':pk': pk, ...(prefix ? { ':p': prefix } : {}) },
            Select: 'COUNT',
          }),
        )
      ).Count ?? 0;
    const inventoryItems = async () => (await Promise.all(partitions.map((pk) => count(pk)))).reduce((a, b) => a + b, 0);
    // Checkpoints in the first partition, entities and relationships in the shards.
    expect(await count(partitions[0]!)).toBeGreaterThan(3);
    expect(await inventoryItems() - (await count(partitions[0]!))).toBeGreaterThanOrEqual(10);
    const runsPrefix = keys.connectionRuns(tenantId, workspaceId, connectionId);
    expect(await count(runsPrefix.PK, runsPrefix.SKPrefix)).toBeGreaterThan(1);

    expect((await http.request('DELETE', `/v1/connections/${connectionId}`, { token: tokens.admin })).status).toBe(204);
    await host.runQueue.idle(); // both purge passes (the second one delayed)
    expect(await inventoryItems()).toBe(0);
    expect(await count(runsPrefix.PK, runsPrefix.SKPrefix)).toBe(0);
    const testsPrefix = keys.connectionTests(tenantId, workspaceId, connectionId);
    expect(await count(testsPrefix.PK, testsPrefix.SKPrefix)).toBe(0);
    for (const path of readRoutes()) expect((await http.request('GET', path, { token: tokens.admin })).status, path).toBe(404);
    // Its schedule went with it: a day later the dispatcher starts nothing for it.
    clock.advance(86_400 * 2);
    const report = await dispatchTick(host.deps);
    expect(report.started).toEqual([]);
  });
});

