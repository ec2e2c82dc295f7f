/**
 * Discovery of cloud provider B (Microsoft Entra ID + Azure RBAC) against the local token
 * endpoint, Microsoft Graph and ARM, driven like the run engine drives it: the graph track and
 * every subscription track to their end through pages smaller than the data, the mapping
 * checked object by object, refused permissions per track, bad credentials, 429 bursts waited
 * out, next links never followed to another host, and what a second read after a change answers.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findIntegration } from '../../shared/connectors/catalog';
import type { AzureConfiguration, AzureScope } from '../../shared/connectors/azure/integration';
import { GROUP_PAGE_SIZE } from '../../shared/connectors/azure/graph-discovery';
import { countByKind, danglingEnds, driveDiscovery, inventory, relationshipKeys, type DiscoveryRead } from '../support/discovery-driver';
import { ID, MANAGEMENT_GROUP, ROLE } from '../../infra/local/stand-ins/azure-directory';
import { azureApp, azureSubscriptions, sampleAzureTenant, startFakeAzure, type FakeAzure } from '../../infra/local/stand-ins/azure';
import { connectorOf } from '../../shared/connectors/connector-registry';

const integration = findIntegration('int_azure_entra_discovery')!;
const configuration: AzureConfiguration = { tenant_id: azureApp.tenantId, client_id: azureApp.clientId, client_secret: azureApp.clientSecret };
const scope: AzureScope = { subscription_ids: azureSubscriptions };
const [subscriptionA, subscriptionB] = azureSubscriptions as [string, string];
const ALL_GRAPH = ['User.Read.All', 'GroupMember.Read.All', 'Application.Read.All', 'RoleManagement.Read.Directory'];

let azure: FakeAzure;
beforeAll(async () => {
  azure = await startFakeAzure();
});
afterAll(() => azure.close());
beforeEach(() => {
  azure.calls.length = 0;
  azure.state.tenant = sampleAzureTenant();
  azure.state.graphPermissions = new Set(ALL_GRAPH);
  azure.state.subscriptions = new Set(azureSubscriptions);
  azure.state.readerOn = new Set(azureSubscriptions);
  azure.state.graphPageSize = 2;
  azure.state.armPageSize = 2;
  azure.state.throttle = undefined;
  azure.state.throttleBurst = undefined;
  azure.state.hang = undefined;
  azure.state.nextLinkOrigin = undefined;
});

async function discover(config: AzureConfiguration = configuration, discoveryScope: AzureScope = scope): Promise<DiscoveryRead> {
  expect(integration.configurationSchema.safeParse(config).success).toBe(true);
  const read = await driveDiscovery(connectorOf(integration).discover, { configuration: config, scope: discoveryScope }, { endpoints: { login: azure.url, graph: azure.url, arm: azure.url } });
  const text = JSON.stringify([read.outcomes, Object.values(read.tracks).map((t) => t.cursors)]);
  for (const secret of [config.client_secret, ...azure.issuedTokens]) expect(text).not.toContain(secret);
  for (const track of Object.values(read.tracks)) {
    for (const cursor of track.cursors) expect(Buffer.byteLength(cursor)).toBeLessThan(8 * 1024);
  }
  return read;
}

/** What the sample tenant holds, counted from its data (not from the connector's mapping). */
function expectedCounts() {
  const tenant = sampleAzureTenant();
  const directoryIds = new Set([...tenant.users, ...tenant.servicePrincipals].map((o) => o.id));
  const assignments = Object.values(tenant.subscriptions).flatMap((s) => s.roleAssignments);
  const orphans = new Set(assignments.filter((a) => (a.principalType === 'User' || a.principalType === 'ServicePrincipal') && !directoryIds.has(a.principalId)).map((a) => a.principalId));
  const scopedRoles = new Set(tenant.roleAssignments.filter((a) => a.directoryScopeId !== '/').map((a) => `${a.roleDefinitionId}${a.directoryScopeId}`));
  return {
    Account: tenant.users.length + tenant.servicePrincipals.length + orphans.size,
    Principal: new Set(tenant.users.map((u) => (u.mail ?? u.userPrincipalName).toLowerCase())).size,
    Entitlement: tenant.groups.length + tenant.roleDefinitions.length + scopedRoles.size + new Set(assignments.map((a) => `${a.scope.toLowerCase()} ${a.roleDefinitionGuid}`)).size,
    Resource: new Set(assignments.map((a) => a.scope.toLowerCase())).size,
    CloudAccountBoundary: Object.keys(tenant.subscriptions).length,
  };
}

function diff(before: Iterable<string>, after: Iterable<string>): { added: string[]; removed: string[] } {
  const a = new Set(before);
  const b = new Set(after);
  return { added: [...b].filter((k) => !a.has(k)).sort(), removed: [...a].filter((k) => !b.has(k)).sort() };
}

const sub = (id: string, rest = '') => `/subscriptions/${id}${rest}`.toLowerCase();
const armRole = (scopeId: string, role: string) => `${scopeId}/providers/microsoft.authorization/roledefinitions/${role}`;

describe('cloud provider B (Azure) discovery', () => {
  it('reads the directory and every subscription to the end, following next links exactly as given', async () => {
    const read = await discover();
    expect(Object.fromEntries(Object.entries(read.tracks).map(([name, t]) => [name, t.status]))).toEqual({
      graph: 'complete',
      [`subscription:${subscriptionA}`]: 'complete',
      [`subscription:${subscriptionB}`]: 'complete',
    });
    expect(countByKind([...inventory(read).values()])).toEqual(expectedCounts());
    expect(danglingEnds(read)).toEqual([]);

    // Graph: pages of two; the first asks $select and $top, the next ones are the next links verbatim.
    const users = azure.calls.filter((c) => c.surface === 'graph' && c.path === '/v1.0/users');
    expect(users).toHaveLength(3);
    expect(users[0]!.query.get('$top')).toBe('999');
    expect(users[0]!.query.get('$select')).toBe('id,displayName,userPrincipalName,mail,accountEnabled,userType');
    expect(users.slice(1).every((c) => c.query.get('$skiptoken') !== null && c.query.get('$select') === users[0]!.query.get('$select'))).toBe(true);
    expect(azure.calls.find((c) => c.path === '/v1.0/groups')?.query.get('$top')).toBe(String(GROUP_PAGE_SIZE));
    // Every group's transitive members were read (Engineering's three pages included).
    const members = azure.calls.filter((c) => c.path.endsWith('/transitiveMembers'));
    expect(new Set(members.map((c) => c.path))).toEqual(new Set([ID.engineering, ID.platform, ID.admins, ID.empty].map((g) => `/v1.0/groups/${g}/transitiveMembers`)));
    // ARM: api-version on every call; role assignments followed through nextLink.
    const arm = azure.calls.filter((c) => c.surface === 'arm');
    expect(arm.length).toBeGreaterThan(0);
    expect(arm.filter((c) => c.query.get('api-version') === null)).toEqual([]);
    expect(arm.filter((c) => c.path.endsWith('/roleAssignments') && c.path.includes(subscriptionA)).map((c) => c.query.get('$skipToken') !== null)).toEqual([false, true, true]);
    // Every request, tokens included, went through the pacer.
    expect(read.pacer.requests).toBe(azure.calls.length);
  });

  it('maps people, accounts, groups, directory roles and RBAC assignments', async () => {
    const read = await discover();
    const entities = inventory(read);
    const has = (kind: string, from: string, to: string) => relationshipKeys(read).has(`${kind} ${from} -> ${to}`);

    // One Principal per mail (else UPN), lower-cased: Alice's two accounts meet in one.
    expect(has('principal_represents_account', 'Principal:alice@contoso.example', `Account:${ID.alice}`)).toBe(true);
    expect(has('principal_represents_account', 'Principal:alice@contoso.example', `Account:${ID.aliceAdmin}`)).toBe(true);
    expect(has('principal_represents_account', 'Principal:bob@contoso.example', `Account:${ID.bob}`)).toBe(true);
    expect(has('principal_represents_account', 'Principal:carol@partner.example', `Account:${ID.carol}`)).toBe(true);
    expect(entities.get(`Account ${ID.app}`)?.attributes).toMatchObject({ type: 'service_principal', service_principal_type: 'Application' });

    // Transitive membership: Platform's members are in Engineering too; a nested group is no Account.
    for (const member of [ID.alice, ID.bob, ID.dave, ID.app]) expect(has('account_assigned_entitlement', `Account:${member}`, `Entitlement:${ID.engineering}`), member).toBe(true);
    expect([...relationshipKeys(read)].some((k) => k.startsWith(`account_assigned_entitlement Account:${ID.platform} `))).toBe(false);

    // Directory roles: direct, through a role-assignable group, and scoped to an administrative unit.
    expect(has('account_assigned_entitlement', `Account:${ID.aliceAdmin}`, `Entitlement:${ROLE.globalAdministrator}`)).toBe(true);
    expect(has('account_assigned_entitlement', `Account:${ID.aliceAdmin}`, `Entitlement:${ROLE.globalReader}`)).toBe(true);
    expect(has('account_assigned_entitlement', `Account:${ID.app}`, `Entitlement:${ROLE.applicationAdministrator}`)).toBe(true);
    const auRole = `${ROLE.userAdministrator}@/administrativeUnits/7c7c7c7c-0000-4000-8000-000000000001`;
    expect(has('account_assigned_entitlement', `Account:${ID.bob}`, `Entitlement:${auRole}`)).toBe(true);
    expect(has('account_assigned_entitlement', `Account:${ID.bob}`, `Entitlement:${ROLE.userAdministrator}`)).toBe(false);
    expect(entities.get(`Entitlement ${ROLE.globalAdministrator}`)).toMatchObject({ display_name: 'Global Administrator', attributes: { type: 'directory_role', built_in: true } });

    // Azure RBAC: the role at its scope, granted to users and service principals; a group reaches the scope.
    const owner = armRole(sub(subscriptionA), ROLE.owner);
    expect(entities.get(`Entitlement ${owner}`)).toMatchObject({ display_name: `Owner @ ${sub(subscriptionA)}`, attributes: { role_name: 'Owner', role_type: 'BuiltInRole', actions: ['*'] } });
    expect(has('account_assigned_entitlement', `Account:${ID.alice}`, `Entitlement:${owner}`)).toBe(true);
    expect(has('entitlement_grants_resource', `Entitlement:${owner}`, `Resource:${sub(subscriptionA)}`)).toBe(true);
    const rgApp = sub(subscriptionA, '/resourceGroups/rg-app');
    expect(has('entitlement_grants_resource', `Entitlement:${ID.engineering}`, `Resource:${rgApp}`)).toBe(true);
    expect(has('entitlement_grants_resource', `Entitlement:${armRole(rgApp, ROLE.contributor)}`, `Resource:${rgApp}`)).toBe(true);
    const storage = sub(subscriptionA, '/resourceGroups/rg-app/providers/Microsoft.Storage/storageAccounts/stapp');
    expect(entities.get(`Resource ${storage}`)?.attributes).toMatchObject({ scope_type: 'resource', resource_group: 'rg-app', resource_type: 'microsoft.storage/storageaccounts' });
    expect(has('account_assigned_entitlement', `Account:${ID.managedIdentity}`, `Entitlement:${armRole(storage, ROLE.storageBlobDataReader)}`)).toBe(true);
    // Assigned at a management group: seen from both subscriptions, one entitlement.
    const inherited = armRole(MANAGEMENT_GROUP.toLowerCase(), ROLE.reader);
    expect(read.relationships.filter((r) => r.to.source_id === inherited && r.kind === 'account_assigned_entitlement').map((r) => r.track).sort()).toEqual(
      [`subscription:${subscriptionA}`, `subscription:${subscriptionB}`],
    );
    // A principal deleted from the directory still holds its assignment: emitted for the graph track.
    expect(read.entities.find((e) => e.source_id === ID.deleted)).toMatchObject({ kind: 'Account', track: 'graph', attributes: { type: 'user' } });
    expect(entities.get(`CloudAccountBoundary ${subscriptionA}`)).toMatchObject({ display_name: 'Production', attributes: { state: 'Enabled', tenant_id: azureApp.tenantId } });
  });

  it('emits exactly the kinds the catalog lists for the integration', async () => {
    const read = await discover();
    expect(new Set(read.entities.map((e) => e.kind))).toEqual(new Set(integration.emits_entities));
    expect(new Set(read.relationships.map((r) => r.kind))).toEqual(new Set(integration.emits_relationships));
  });

  it('reads the same source ids twice, and after a change exactly the change', async () => {
    const firstRead = await discover();
    const first = inventory(firstRead);
    const second = inventory(await discover());
    expect([...second.keys()].sort()).toEqual([...first.keys()].sort());
    for (const [key, entity] of first) expect(second.get(key)?.attributes, key).toEqual(entity.attributes);

    // A new user in the nested group, and the custom role assignment of the sandbox removed.
    const erin = 'e0e0e0e0-0000-4000-8000-00000000000f';
    azure.state.tenant.users.push({ id: erin, displayName: 'Erin', userPrincipalName: 'erin@contoso.example', mail: null, accountEnabled: true, userType: 'Member' });
    azure.state.tenant.groups.find((g) => g.id === ID.platform)!.members.push(erin);
    const sandbox = azure.state.tenant.subscriptions[subscriptionB]!;
    sandbox.roleAssignments = sandbox.roleAssignments.filter((a) => a.roleDefinitionGuid !== ROLE.deployer);
    const thirdRead = await discover();

    const rgSandbox = sub(subscriptionB, '/resourceGroups/rg-sandbox');
    expect(diff(first.keys(), inventory(thirdRead).keys())).toEqual({
      added: [`Account ${erin}`, 'Principal erin@contoso.example'],
      removed: [`Entitlement ${armRole(rgSandbox, ROLE.deployer)}`, `Resource ${rgSandbox}`],
    });
    expect(diff(relationshipKeys(firstRead), relationshipKeys(thirdRead))).toEqual({
      added: [
        `account_assigned_entitlement Account:${erin} -> Entitlement:${ID.engineering}`,
        `account_assigned_entitlement Account:${erin} -> Entitlement:${ID.platform}`,
        `principal_represents_account Principal:erin@contoso.example -> Account:${erin}`,
      ],
      removed: [
        `account_assigned_entitlement Account:${ID.dave} -> Entitlement:${armRole(rgSandbox, ROLE.deployer)}`,
        `entitlement_grants_resource Entitlement:${armRole(rgSandbox, ROLE.deployer)} -> Resource:${rgSandbox}`,
      ],
    });
  });

  it('without GroupMember.Read.All reads the rest of the directory, then refuses with that permission; subscriptions complete', async () => {
    azure.state.graphPermissions.delete('GroupMember.Read.All');
    const read = await discover();
    expect(read.tracks[`subscription:${subscriptionA}`]?.status).toBe('complete');
    expect(read.tracks.graph).toMatchObject({
      status: 'refused',
      remediation: [
        {
          category: 'permissions',
          message: `The app ${azureApp.clientId} lacks the Microsoft Graph application permission GroupMember.Read.All.`,
          action:
            `Grant the Microsoft Graph application permission GroupMember.Read.All to the app registration ${azureApp.clientId} and grant admin consent in tenant ${azureApp.tenantId}: ` +
            `az ad app permission add --id ${azureApp.clientId} --api 00000003-0000-0000-c000-000000000000 --api-permissions 98830695-27a2-44f7-8c18-0c3ebc9698f6=Role && az ad app permission admin-consent --id ${azureApp.clientId} ` +
            `(portal: Microsoft Entra ID > App registrations > ${azureApp.clientId} > API permissions > Add a permission > Microsoft Graph > Application permissions > GroupMember.Read.All, then Grant admin consent). ` +
            'Without it discovery would miss groups and their memberships (Entitlement, account_assigned_entitlement).',
        },
      ],
    });
    const graph = [...inventory(read).values()].filter((e) => read.entities.some((o) => o.source_id === e.source_id && o.readBy === 'graph'));
    expect(countByKind(graph)).toMatchObject({ Account: 8, Principal: 4 });
    expect(graph.some((e) => e.attributes.type === 'group')).toBe(false);
    // The roles still came, the one held through a group could not be expanded.
    expect(relationshipKeys(read).has(`account_assigned_entitlement Account:${ID.aliceAdmin} -> Entitlement:${ROLE.globalAdministrator}`)).toBe(true);
  });

  it('refuses only the subscription without Reader, with the exact assignment to make', async () => {
    azure.state.readerOn = new Set([subscriptionA]);
    const read = await discover();
    expect(read.tracks.graph?.status).toBe('complete');
    expect(read.tracks[`subscription:${subscriptionA}`]?.status).toBe('complete');
    expect(read.tracks[`subscription:${subscriptionB}`]).toMatchObject({
      status: 'refused',
      remediation: [
        {
          category: 'permissions',
          message: `The app ${azureApp.clientId} has no Reader role on subscription ${subscriptionB} (Microsoft.Authorization/roleAssignments/read was refused).`,
          action:
            `Assign the built-in Azure role Reader (acdd72a7-3385-48ef-bd42-f606fba81ae7) to the service principal of app ${azureApp.clientId} at scope /subscriptions/${subscriptionB}: ` +
            `az role assignment create --assignee ${azureApp.clientId} --role Reader --scope /subscriptions/${subscriptionB}. ` +
            "Without it discovery would miss the subscription's role assignments, role definitions and resources.",
        },
      ],
    });
  });

  it('refuses a subscription that is not in the tenant as a configuration mistake', async () => {
    const stranger = '99999999-8888-4777-8666-555555555555';
    const read = await discover(configuration, { subscription_ids: [subscriptionA, stranger] });
    expect(read.tracks[`subscription:${stranger}`]).toMatchObject({ status: 'refused', remediation: [expect.objectContaining({ category: 'configuration' })] });
  });

  it('fails every track with a credentials item when the secret is wrong, before any read', async () => {
    const read = await discover({ ...configuration, client_secret: 'not-the-secret' });
    for (const track of Object.values(read.tracks)) {
      expect(track).toMatchObject({ status: 'failed', remediation: [expect.objectContaining({ category: 'credentials', message: expect.stringContaining('AADSTS7000215') })] });
    }
    expect(azure.calls.filter((c) => c.surface !== 'token')).toEqual([]);
  });

  it('waits out 429 bursts for the Retry-After asked, sending nothing before it, then completes', async () => {
    azure.state.throttleBurst = { surface: 'graph', count: 2, retryAfterSeconds: 1 };
    const read = await discover(configuration, { subscription_ids: [subscriptionA] });
    expect(read.tracks.graph?.status).toBe('complete');
    const graphCalls = azure.calls.filter((c) => c.surface === 'graph');
    const throttled = graphCalls.slice(0, 2);
    expect(read.tracks.graph?.throttles).toHaveLength(2);
    for (const [i, call] of throttled.entries()) {
      expect(graphCalls[i + 1]!.at, `request after 429 #${i + 1}`).toBeGreaterThanOrEqual(call.at + 1_000);
      expect(read.tracks.graph!.throttles[i]!.retryAtMs).toBeGreaterThanOrEqual(call.at + 1_000);
    }
    expect(read.pacer.observed.filter((o) => o.retryAtMs !== undefined).map((o) => o.bucket)).toEqual(['azure:graph', 'azure:graph']);

    azure.calls.length = 0;
    azure.state.throttleBurst = { surface: 'arm', count: 1, retryAfterSeconds: 1 };
    const arm = await discover(configuration, { subscription_ids: [subscriptionA] });
    expect(arm.tracks[`subscription:${subscriptionA}`]).toMatchObject({ status: 'complete', throttles: [expect.anything()] });
    expect(countByKind([...inventory(arm).values()])).toEqual(countByKind([...inventory(read).values()]));
  });

  it('never follows a next link to another host (the token would go with it)', async () => {
    azure.state.nextLinkOrigin = 'http://127.0.0.2:9';
    const read = await discover(configuration, { subscription_ids: [subscriptionA] });
    expect(read.tracks.graph).toMatchObject({
      status: 'failed',
      remediation: [expect.objectContaining({ category: 'connectivity', message: 'Microsoft Graph answered unexpectedly (a next link to another host, not followed).' })],
    });
  });

  it('answers a silent endpoint as connectivity, and a throttled token endpoint as throttled', async () => {
    const context = (timeoutMs: number) => ({
      signal: AbortSignal.timeout(timeoutMs),
      endpoints: { login: azure.url, graph: azure.url, arm: azure.url },
      pacer: { wait: () => Promise.resolve(), observe: () => undefined, requests: 0 },
      session: new Map<string, unknown>(),
      now: () => Date.now(),
    });
    azure.state.hang = 'arm';
    expect(await connectorOf(integration).discover.readPage({ configuration, scope }, `subscription:${subscriptionA}`, null, context(300))).toEqual({
      kind: 'failed',
      remediation: [expect.objectContaining({ category: 'connectivity', message: expect.stringMatching(/^Azure Resource Manager did not answer within/) })],
    });

    azure.state.hang = undefined;
    azure.state.throttleBurst = { surface: 'token', count: 1, retryAfterSeconds: 3 };
    const before = Date.now();
    const outcome = await connectorOf(integration).discover.readPage({ configuration, scope }, 'graph', null, context(5_000));
    expect(outcome).toEqual({ kind: 'throttled', retryAtMs: expect.any(Number) });
    expect(outcome.kind === 'throttled' && outcome.retryAtMs).toBeGreaterThanOrEqual(before + 3_000);
  });
});
