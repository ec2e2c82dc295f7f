/**
 * Discovery runs of the two cloud connectors over HTTP: AWS (STS + IAM) and Azure (Entra
 * token endpoint, Graph, ARM), each a local server that pages, throttles and refuses as the
 * provider documents. What the run keeps is compared with what the connector reads when driven
 * directly (test/peers check that read against the fakes' data): the engine loses, invents and
 * duplicates nothing, across many checkpointed steps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findIntegration } from '../../shared/connectors/catalog';
import { driveDiscovery, inventory, relationshipKeys } from '../support/discovery-driver';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { AWS_ACCOUNT, AWS_SECOND_ACCOUNT, awsRole, awsSecondRole, awsUser, sampleAccounts, startFakeAws, type FakeAws } from '../../infra/local/stand-ins/aws';
import { azureApp, azureSubscriptions, sampleAzureTenant, startFakeAzure, type FakeAzure } from '../../infra/local/stand-ins/azure';
import { countByKind, listAll, runToEnd, type ChangeBody, type EntityBody, type RelationshipBody } from '../support/runs';
import { startTestHost, type TestHost } from '../support/test-host';
import { connectorOf } from '../../shared/connectors/connector-registry';

let aws: FakeAws;
let azure: FakeAzure;
let host: TestHost;
let http: HttpClient;
let token: string;
const clock = new MovableClock();

const awsConfiguration = { access_key_id: awsUser.accessKeyId, secret_access_key: awsUser.secretAccessKey, region: 'eu-west-1', role_arn: awsRole.arn, external_id: awsRole.externalId! };
const awsScope = { account_ids: [AWS_ACCOUNT, AWS_SECOND_ACCOUNT] };
const azureConfiguration = { tenant_id: azureApp.tenantId, client_id: azureApp.clientId, client_secret: azureApp.clientSecret };
const azureScope = { subscription_ids: azureSubscriptions };

beforeAll(async () => {
  aws = await startFakeAws({ detailsPageSize: 2 });
  azure = await startFakeAzure({ graphPageSize: 2, armPageSize: 2 });
  host = await startTestHost({
    clock,
    env: {
      TESSERA_CONNECTOR_ENDPOINTS: JSON.stringify({ sts: aws.url, iam: aws.url, login: azure.url, graph: azure.url, arm: azure.url }),
      TESSERA_RUN_PAGES_PER_STEP: '2',
    },
  });
  http = api(host.url);
  const tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  token = (await login(http, clock, tenant.admin.email)).accessToken;
});
afterAll(async () => {
  await host?.close();
  await aws?.close();
  await azure?.close();
});

async function createConnection(integrationId: string, configuration: Record<string, unknown>, scope: Record<string, unknown>): Promise<string> {
  const res = await http.request('POST', '/v1/connections', { token, body: { integration_id: integrationId, name: integrationId, scope, schedule: { type: 'daily', hour: 3, minute: 0 }, configuration } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { connection_id: string }).connection_id;
}

async function inventoryOf(id: string) {
  const entities = await listAll<EntityBody>(http, token, `/v1/connections/${id}/entities`, 'entities');
  const relationships = await listAll<RelationshipBody>(http, token, `/v1/connections/${id}/relationships`, 'relationships');
  return { entities, relationships };
}

/** The run's inventory against the connector read directly: same entities, same relationships, no dangling end. */
async function expectSameAsDirectRead(id: string, integrationId: string, input: { configuration: never; scope: never }, endpoints: Record<string, string>) {
  const read = await driveDiscovery(connectorOf(findIntegration(integrationId)!).discover, input, { endpoints });
  const expectedEntities = [...inventory(read).values()].map((e) => `${e.kind} ${e.source_id}`).sort();
  const expectedRelationships = [...relationshipKeys(read)].sort();
  const { entities, relationships } = await inventoryOf(id);
  expect(entities.map((e) => `${e.kind} ${e.source_id}`).sort()).toEqual(expectedEntities);
  const kindOf = new Map(entities.map((e) => [e.entity_id, e.kind]));
  expect(relationships.map((r) => `${r.kind} ${kindOf.get(r.from_entity_id)}:${r.from_source_id} -> ${kindOf.get(r.to_entity_id)}:${r.to_source_id}`).sort()).toEqual(expectedRelationships);
  return { entities, relationships };
}

describe('AWS runs', () => {
  it('read every account to the end through its role, keep exactly what the connector read, and make the connection healthy', async () => {
    aws.state.accounts = sampleAccounts();
    const id = await createConnection('int_aws_iam_discovery', awsConfiguration, awsScope);
    const run = await runToEnd(http, host, token, id);
    expect(run).toMatchObject({ status: 'succeeded', errors: [] });
    expect(run.stats.steps).toBeGreaterThan(3);
    const { entities } = await expectSameAsDirectRead(id, 'int_aws_iam_discovery', { configuration: awsConfiguration, scope: awsScope } as never, { sts: aws.url, iam: aws.url });
    expect(countByKind(entities)).toEqual(run.counts.entities);
    expect(countByKind(entities).CloudAccountBoundary).toBe(2);
    // GetAccountAuthorizationDetails was paged through its markers (pages of 2 here).
    expect(aws.calls.filter((c) => c.action === 'GetAccountAuthorizationDetails' && c.params.get('Marker')).length).toBeGreaterThan(2);
    expect((await http.request('GET', `/v1/connections/${id}`, { token })).body).toMatchObject({ status: 'healthy', last_run_at: run.finished_at });
  });

  it('a role without GetAccountAuthorizationDetails in one account: partial, the statement to attach, the other account kept whole', async () => {
    aws.state.accounts = sampleAccounts();
    const id = await createConnection('int_aws_iam_discovery', awsConfiguration, awsScope);
    await runToEnd(http, host, token, id);
    const before = await inventoryOf(id);
    aws.state.denied = { [awsSecondRole.arn]: { 'iam:GetAccountAuthorizationDetails': 'implicitDeny' } };
    try {
      const run = await runToEnd(http, host, token, id);
      expect(run.status).toBe('partial');
      expect(run.errors).toEqual([expect.objectContaining({ category: 'permissions', action: expect.stringContaining('iam:GetAccountAuthorizationDetails') })]);
      expect(run.changes).toMatchObject({ entities_removed: 0, relationships_removed: 0 });
      const after = await inventoryOf(id);
      expect(after.entities.map((e) => e.entity_id).sort()).toEqual(before.entities.map((e) => e.entity_id).sort());
      expect((await http.request('GET', `/v1/connections/${id}`, { token })).body).toMatchObject({ status: 'degraded' });
    } finally {
      aws.state.denied = {};
    }
  });

  it('rejected keys fail the run and keep the previous inventory', async () => {
    aws.state.accounts = sampleAccounts();
    const id = await createConnection('int_aws_iam_discovery', awsConfiguration, awsScope);
    await runToEnd(http, host, token, id);
    const before = await inventoryOf(id);
    await http.request('PATCH', `/v1/connections/${id}`, { token, body: { configuration: { ...awsConfiguration, secret_access_key: 'x'.repeat(40) } } });
    const run = await runToEnd(http, host, token, id);
    expect(run.status).toBe('failed');
    expect(run.errors.map((e) => e.category)).toContain('credentials');
    expect((await inventoryOf(id)).entities).toHaveLength(before.entities.length);
    expect(JSON.stringify(run)).not.toContain(awsUser.secretAccessKey);
  });

  it('a second run after a user leaves reports the user and its relationships removed, and keeps every other id', async () => {
    aws.state.accounts = sampleAccounts();
    const id = await createConnection('int_aws_iam_discovery', awsConfiguration, awsScope);
    await runToEnd(http, host, token, id);
    const before = await inventoryOf(id);
    const accounts = sampleAccounts();
    const leaver = accounts[AWS_ACCOUNT]!.users.at(-1)!;
    accounts[AWS_ACCOUNT]!.users = accounts[AWS_ACCOUNT]!.users.filter((u) => u !== leaver);
    aws.state.accounts = accounts;
    const run = await runToEnd(http, host, token, id);
    expect(run.status).toBe('succeeded');
    const changes = await listAll<ChangeBody>(http, token, `/v1/connections/${id}/runs/${run.run_id}/changes`, 'changes');
    const leaverArn = `arn:aws:iam::${AWS_ACCOUNT}:user/${leaver.path ?? ''}${leaver.name}`.replace(':user//', ':user/');
    expect(changes.filter((c) => c.change === 'added' || c.change === 'changed')).toEqual([]);
    expect(changes).toContainEqual(expect.objectContaining({ change: 'removed', kind: 'Account', source_id: leaverArn }));
    const assignments = changes.filter((c) => c.kind === 'account_assigned_entitlement');
    expect(assignments.length).toBeGreaterThan(0);
    expect(new Set(assignments.map((c) => `${c.change} ${c.entity_id}`))).toEqual(new Set([`removed ${changes.find((a) => a.kind === 'Account')!.entity_id}`]));
    const after = await inventoryOf(id);
    const survivors = before.entities.filter((e) => !changes.some((c) => c.change === 'removed' && c.entity_id === e.entity_id));
    expect(after.entities.map((e) => e.entity_id).sort()).toEqual(survivors.map((e) => e.entity_id).sort());
  });

  it('waits out a throttling burst longer than the SDK retries and still completes', async () => {
    aws.state.accounts = sampleAccounts();
    const id = await createConnection('int_aws_iam_discovery', awsConfiguration, awsScope);
    aws.state.throttleBurst = { action: 'GetAccountAuthorizationDetails', count: 5 };
    const run = await runToEnd(http, host, token, id);
    expect(run.status).toBe('succeeded');
    expect(aws.state.throttleBurst?.count ?? 0).toBe(0);
  });
});

describe('Azure runs', () => {
  it('read the directory and every subscription to the end, keep exactly what the connector read, and make the connection healthy', async () => {
    azure.state.tenant = sampleAzureTenant();
    const id = await createConnection('int_azure_entra_discovery', azureConfiguration, azureScope);
    const run = await runToEnd(http, host, token, id);
    expect(run).toMatchObject({ status: 'succeeded', errors: [] });
    const { entities } = await expectSameAsDirectRead(id, 'int_azure_entra_discovery', { configuration: azureConfiguration, scope: azureScope } as never, { login: azure.url, graph: azure.url, arm: azure.url });
    expect(countByKind(entities)).toEqual(run.counts.entities);
    expect(countByKind(entities).CloudAccountBoundary).toBe(2);
    expect(azure.calls.filter((c) => c.surface === 'graph' && c.query.get('$skiptoken')).length).toBeGreaterThan(2);
  });

  it('honours 429 bursts with Retry-After and completes', async () => {
    azure.state.tenant = sampleAzureTenant();
    const id = await createConnection('int_azure_entra_discovery', azureConfiguration, azureScope);
    azure.state.throttleBurst = { surface: 'graph', count: 2, retryAfterSeconds: 1 };
    const run = await runToEnd(http, host, token, id);
    expect(run.status).toBe('succeeded');
    expect(run.stats.throttled_ms).toBeGreaterThan(0);
    const throttled = azure.calls.filter((c) => c.surface === 'graph');
    expect(throttled.length).toBeGreaterThan(2);
  });

  it('a subscription without Reader: partial, the assignment to make, the directory kept', async () => {
    azure.state.tenant = sampleAzureTenant();
    const id = await createConnection('int_azure_entra_discovery', azureConfiguration, azureScope);
    azure.state.readerOn = new Set([azureSubscriptions[0]!]);
    try {
      const run = await runToEnd(http, host, token, id);
      expect(run.status).toBe('partial');
      expect(run.errors).toEqual([expect.objectContaining({ category: 'permissions', message: expect.stringContaining(azureSubscriptions[1]!) })]);
      expect((await http.request('GET', `/v1/connections/${id}`, { token })).body).toMatchObject({ status: 'degraded' });
    } finally {
      azure.state.readerOn = new Set(azureSubscriptions);
    }
  });

  it('a subscription whose role assignments come back empty with 200 is refused: partial, its inventory kept, the test fails with the Reader assignment', async () => {
    azure.state.tenant = sampleAzureTenant();
    const id = await createConnection('int_azure_entra_discovery', azureConfiguration, azureScope);
    expect((await runToEnd(http, host, token, id)).status).toBe('succeeded');
    const before = await inventoryOf(id);
    const [, quiet] = azureSubscriptions as [string, string];
    azure.state.withoutAssignmentsRead = new Set([quiet]);
    try {
      const run = await runToEnd(http, host, token, id);
      expect(run.status).toBe('partial');
      const remediation = {
        category: 'permissions',
        message: `The app ${azureApp.clientId} has no Reader role on subscription ${quiet} (Azure Resource Manager listed its role assignments with HTTP 200 and none, as it answers a role without Microsoft.Authorization/roleAssignments/read).`,
        action: expect.stringContaining(`az role assignment create --assignee ${azureApp.clientId} --role Reader --scope /subscriptions/${quiet}`),
      };
      expect(run.errors).toEqual([remediation]);
      expect(run.changes).toMatchObject({ entities_removed: 0, relationships_removed: 0 });
      const after = await inventoryOf(id);
      // The quiet subscription's role assignments are still there, as read before.
      const underQuiet = (inv: typeof before) => inv.relationships.filter((r) => r.to_source_id.startsWith(`/subscriptions/${quiet}`)).length;
      expect(underQuiet(before)).toBeGreaterThan(0);
      expect(underQuiet(after)).toBe(underQuiet(before));
      expect(after.entities.length).toBe(before.entities.length);

      const tested = await http.request('POST', `/v1/connections/${id}/test`, { token });
      expect(tested.body).toMatchObject({ status: 'failure', remediation: [remediation] });
    } finally {
      azure.state.withoutAssignmentsRead = new Set();
    }
  });

  it('a Graph permission refused with 403 Authorization_RequestDenied: partial, the permission to grant, the directory kept', async () => {
    azure.state.tenant = sampleAzureTenant();
    const id = await createConnection('int_azure_entra_discovery', azureConfiguration, azureScope);
    expect((await runToEnd(http, host, token, id)).status).toBe('succeeded');
    const before = await inventoryOf(id);
    azure.state.graphPermissions.delete('GroupMember.Read.All');
    try {
      const run = await runToEnd(http, host, token, id);
      expect(run.status).toBe('partial');
      expect(run.errors).toEqual([expect.objectContaining({ category: 'permissions', message: `The app ${azureApp.clientId} lacks the Microsoft Graph application permission GroupMember.Read.All.` })]);
      expect(run.changes).toMatchObject({ entities_removed: 0, relationships_removed: 0 });
      const after = await inventoryOf(id);
      expect(countByKind(after.entities)).toEqual(countByKind(before.entities));
      expect(countByKind(after.relationships)).toEqual(countByKind(before.relationships));
      const tested = await http.request('POST', `/v1/connections/${id}/test`, { token });
      expect(tested.body).toMatchObject({ status: 'failure', remediation: [expect.objectContaining({ message: expect.stringContaining('GroupMember.Read.All') })] });
    } finally {
      azure.state.graphPermissions.add('GroupMember.Read.All');
    }
  });

  it('a wrong client secret fails the run', async () => {
    azure.state.tenant = sampleAzureTenant();
    const id = await createConnection('int_azure_entra_discovery', { ...azureConfiguration, client_secret: 'not-the-secret' }, azureScope);
    const run = await runToEnd(http, host, token, id);
    expect(run.status).toBe('failed');
    expect(run.errors.map((e) => e.category)).toContain('credentials');
    expect((await inventoryOf(id)).entities).toEqual([]);
  });
});
