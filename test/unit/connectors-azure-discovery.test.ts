/**
 * The Azure discovery readers (Microsoft Graph `graph` track, ARM `subscription:<id>` tracks)
 * page by page against the local Entra ID + Graph + ARM, and, for answers that fake never
 * gives, a bare loopback server standing in for Graph or ARM (tokens still come from the fake):
 * objects without the fields the mapping reads, a permission refused late in the track, a group
 * deleted between pages, page tokens the provider no longer accepts, a deleted custom role,
 * assignments at the root and at scopes that are neither, throttling in the middle of a page,
 * and cursors or tracks the connector never writes.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { azureGraphPermissions } from '../../shared/connectors/azure/permissions';
import { missingGraphPermission, missingReaderRole, unknownSubscription } from '../../shared/connectors/azure/remediation';
import type { AzureConfiguration, AzureScope } from '../../shared/connectors/azure/integration';
import { azureDiscovery } from '../../shared/connectors/azure/discovery';
import type { DiscoveryContext, ObservedEntity, PageOutcome, TrackCursor } from '../../shared/connectors/discovery';
import { unexpectedAnswer } from '../../shared/connectors/outcome';
import { driveDiscovery, inventory, TestPacer } from '../support/discovery-driver';
import { ID, ROLE, type FakeTenant } from '../../infra/local/stand-ins/azure-directory';
import { azureApp, azureSubscriptions, sampleAzureTenant, startFakeAzure, type FakeAzure } from '../../infra/local/stand-ins/azure';
import { json, startLocalServer, type LocalReply, type LocalServer } from '../../infra/local/stand-ins/local-server';

const configuration: AzureConfiguration = { tenant_id: azureApp.tenantId, client_id: azureApp.clientId, client_secret: azureApp.clientSecret };
const [subscriptionA] = azureSubscriptions as [string, string];
const ALL_GRAPH = azureGraphPermissions.map((p) => p.permission);

let azure: FakeAzure;
/** Answers `replies[pathname]` (the query is ignored), else 404 without a body. */
let bare: LocalServer;
let replies: Record<string, LocalReply> = {};

beforeAll(async () => {
  azure = await startFakeAzure();
  bare = await startLocalServer((request) => replies[request.url.pathname] ?? { status: 404 });
});
afterAll(async () => {
  await azure.close();
  await bare.close();
});
beforeEach(() => {
  azure.calls.length = 0;
  azure.state.tenant = sampleAzureTenant();
  azure.state.graphPermissions = new Set(ALL_GRAPH);
  azure.state.subscriptions = new Set(azureSubscriptions);
  azure.state.readerOn = new Set(azureSubscriptions);
  azure.state.graphPageSize = 100;
  azure.state.armPageSize = 1000;
  replies = {};
});

const fakeEndpoints = () => ({ login: azure.url, graph: azure.url, arm: azure.url });
const contextFor = (endpoints: Record<string, string> = fakeEndpoints()): DiscoveryContext => ({ signal: AbortSignal.timeout(10_000), endpoints, pacer: new TestPacer(), session: new Map(), now: () => Date.now() });
const read = (track: string, cursor: TrackCursor | null, context = contextFor(), scope: AzureScope = { subscription_ids: azureSubscriptions }): Promise<PageOutcome> =>
  azureDiscovery.readPage({ configuration, scope }, track, cursor, context);

const graphFailed = (detail: string): PageOutcome => ({ kind: 'failed', remediation: [unexpectedAnswer('Microsoft Graph', detail)] });
const armFailed = (detail: string): PageOutcome => ({ kind: 'failed', remediation: [unexpectedAnswer('Azure Resource Manager', detail)] });
const graphPermission = (name: string) => azureGraphPermissions.find((p) => p.permission === name)!;
const graphCursor = (fields: Partial<{ phase: string; link: string | null; pending: string[]; groupsLink: string | null; refused: string[] }>): TrackCursor => ({
  phase: 'users', link: null, pending: [], groupsLink: null, refused: [], ...fields,
});
/** Directory objects as Graph may return them, without the fields the fixtures always fill. */
const sparse = <T>(value: Record<string, unknown>) => value as unknown as T;
const entitiesOf = (outcome: PageOutcome): ObservedEntity[] => (outcome.kind === 'page' ? outcome.entities : []);
const pageNext = (outcome: PageOutcome): TrackCursor => {
  expect(outcome.kind).toBe('page');
  return JSON.parse(JSON.stringify(outcome.kind === 'page' ? outcome.next : null)) as TrackCursor;
};

describe('Microsoft Graph discovery: what the directory leaves out', () => {
  it('maps absent names, flags and types as null or the object id, and skips objects without an id', async () => {
    const user = 'aaaa0000-0000-4000-8000-0000000000f1';
    const sp = 'aaaa0000-0000-4000-8000-0000000000f2';
    const group = 'aaaa0000-0000-4000-8000-0000000000f3';
    const role = 'aaaa0000-0000-4000-8000-0000000000f4';
    const upnOnly = 'aaaa0000-0000-4000-8000-0000000000f5';
    const tenant: FakeTenant = {
      ...sampleAzureTenant(),
      users: [sparse({ id: user }), sparse({ id: upnOnly, userPrincipalName: 'Only.UPN@contoso.test' }), sparse({ displayName: 'no id' })],
      servicePrincipals: [sparse({ id: sp }), sparse({ displayName: 'no id' })],
      groups: [sparse({ id: group, groupTypes: 'Unified', members: [user] }), sparse({ displayName: 'no id', members: [] })],
      roleDefinitions: [sparse({ id: role }), sparse({ displayName: 'no id' })],
      roleAssignments: [
        sparse({ id: 'ra-1', principalId: user, roleDefinitionId: role }),
        sparse({ id: 'ra-2', roleDefinitionId: role, directoryScopeId: '/' }),
        sparse({ id: 'ra-3', principalId: ID.deleted, roleDefinitionId: role, directoryScopeId: '/' }),
      ],
    };
    azure.state.tenant = tenant;
    const run = await driveDiscovery(azureDiscovery, { configuration, scope: { subscription_ids: [] } }, { endpoints: fakeEndpoints() });
    expect(run.tracks.graph?.status).toBe('complete');
    const held = inventory(run);

    // A user with neither mail nor UPN names no person; one with a UPN only is that person.
    expect(held.get(`Account ${user}`)).toMatchObject({ display_name: user, attributes: { type: 'user', user_principal_name: null, mail: null, account_enabled: null, user_type: null } });
    expect(held.get(`Account ${upnOnly}`)?.display_name).toBe('Only.UPN@contoso.test');
    expect([...held.keys()].filter((k) => k.startsWith('Principal '))).toEqual(['Principal only.upn@contoso.test']);
    expect(held.get(`Account ${sp}`)).toMatchObject({ display_name: sp, attributes: { type: 'service_principal', app_id: null, service_principal_type: null, account_enabled: null, app_owner_organization_id: null } });
    expect(held.get(`Entitlement ${group}`)).toMatchObject({ display_name: group, attributes: { type: 'group', security_enabled: null, mail_enabled: null, group_types: [], role_assignable: null } });
    expect(held.get(`Entitlement ${role}`)).toMatchObject({ display_name: role, attributes: { type: 'directory_role', built_in: null, enabled: null, template_id: null } });
    expect([...held.values()].some((e) => e.display_name === 'no id')).toBe(false);
    expect(held.size).toBe(6);

    // No directory scope is the whole directory; an assignment without a principal, or to a
    // principal deleted since, gives nobody the role.
    expect(run.relationships.filter((r) => r.to.source_id === role).map((r) => `${r.kind} ${r.from.source_id}`)).toEqual([`account_assigned_entitlement ${user}`]);
  });
});

describe('Microsoft Graph discovery: between pages', () => {
  it('a directory that refuses role management skips both role listings and ends refused with that permission', async () => {
    azure.state.graphPermissions.delete('RoleManagement.Read.Directory');
    const run = await driveDiscovery(azureDiscovery, { configuration, scope: { subscription_ids: [] } }, { endpoints: fakeEndpoints() });
    expect(run.tracks.graph).toMatchObject({ status: 'refused', remediation: [missingGraphPermission(graphPermission('RoleManagement.Read.Directory'), azureApp.clientId, azureApp.tenantId)] });
    expect(azure.calls.filter((c) => c.path.includes('roleManagement')).map((c) => c.path)).toEqual(['/v1.0/roleManagement/directory/roleDefinitions']);
    const held = inventory(run);
    expect(held.has(`Account ${ID.alice}`) && held.has(`Entitlement ${ID.engineering}`)).toBe(true);
    expect(held.has(`Entitlement ${ROLE.globalAdministrator}`)).toBe(false);
  });

  it('a group deleted after its groups page is passed over, on to the next pending group', async () => {
    const gone = '9a9a9a9a-0000-4000-8000-0000000000ff';
    const outcome = await read('graph', graphCursor({ phase: 'members', pending: [gone, ID.engineering] }));
    expect(outcome).toEqual({ kind: 'page', entities: [], relationships: [], next: graphCursor({ phase: 'members', pending: [ID.engineering] }) });
    expect(azure.calls.filter((c) => c.surface === 'graph').map((c) => c.path)).toEqual([`/v1.0/groups/${gone}/transitiveMembers`]);
  });

  it('a groups page whose groups all lack an id goes on to the next groups page, and the last one to role definitions', async () => {
    azure.state.graphPageSize = 1;
    azure.state.tenant = { ...sampleAzureTenant(), groups: [sparse({ displayName: 'no id', members: [] })] };
    const first = await read('graph', graphCursor({ phase: 'groups' }));
    expect(entitiesOf(first)).toEqual([]);
    expect(first).toMatchObject({ next: graphCursor({ phase: 'roleDefinitions' }) });

    azure.state.tenant = { ...sampleAzureTenant(), groups: [sparse({ displayName: 'no id', members: [] }), ...sampleAzureTenant().groups] };
    const paged = pageNext(await read('graph', graphCursor({ phase: 'groups' })));
    expect(paged).toMatchObject({ phase: 'groups', pending: [], link: expect.stringContaining('$skiptoken=') });
    const second = await read('graph', paged);
    expect(second).toMatchObject({ kind: 'page', next: { phase: 'members', pending: [sampleAzureTenant().groups[0]!.id] } });
  });

  it('a page token Graph no longer accepts fails with its status and error code', async () => {
    const outcome = await read('graph', graphCursor({ link: `${azure.url}/v1.0/users?$top=999&$skiptoken=expired` }));
    expect(outcome).toEqual(graphFailed('HTTP 400 Directory_ExpiredPageToken'));
  });
});

describe('Microsoft Graph discovery: answers the fake never gives', () => {
  const bareGraph = () => contextFor({ login: azure.url, graph: bare.url, arm: azure.url });
  const groupHolder = '9a9a9a9a-0000-4000-8000-0000000000e1';
  const roleAssignments = (principalType: string) =>
    json(200, { value: [{ id: 'ra', principalId: groupHolder, roleDefinitionId: ROLE.globalReader, directoryScopeId: '/', principal: { '@odata.type': principalType } }] });

  it('a role-holding group whose member read is throttled answers throttled (the page is read again whole)', async () => {
    replies['/v1.0/roleManagement/directory/roleAssignments'] = roleAssignments('#microsoft.graph.group');
    replies[`/v1.0/groups/${groupHolder}/transitiveMembers`] = json(429, { error: { code: 'TooManyRequests' } }, { 'retry-after': '30' });
    const before = Date.now();
    const outcome = await read('graph', graphCursor({ phase: 'roleAssignments' }), bareGraph());
    expect(outcome.kind).toBe('throttled');
    expect((outcome as { retryAtMs: number }).retryAtMs).toBeGreaterThanOrEqual(before + 30_000);
  });

  it('a role-holding group gone before its members are read passes the role to nobody, and refuses nothing', async () => {
    replies['/v1.0/roleManagement/directory/roleAssignments'] = roleAssignments('#microsoft.graph.group');
    replies[`/v1.0/groups/${groupHolder}/transitiveMembers`] = json(404, { error: { code: 'Request_ResourceNotFound' } });
    expect(await read('graph', graphCursor({ phase: 'roleAssignments' }), bareGraph())).toEqual({ kind: 'page', entities: [], relationships: [], next: null });
  });

  it('a client error without an error body fails with its status alone', async () => {
    replies['/v1.0/users'] = { status: 400, headers: { 'content-type': 'text/plain' }, body: 'Bad Request' };
    expect(await read('graph', null, bareGraph())).toEqual(graphFailed('HTTP 400'));
  });
});

describe('Azure Resource Manager discovery', () => {
  const subscriptionTrack = `subscription:${subscriptionA}`;
  const assignmentsCursor = { phase: 'roleAssignments', link: null };

  it('maps a deleted custom role unnamed, root and other scopes, and leaves devices out', async () => {
    const tenant = sampleAzureTenant();
    const deletedRole = '0bad0000-0000-4000-8000-0000000000d1';
    tenant.subscriptions[subscriptionA]!.roleAssignments = [
      { guid: 'a1', scope: '/', roleDefinitionGuid: ROLE.owner, principalId: ID.alice, principalType: 'User' },
      { guid: 'a2', scope: `/subscriptions/${subscriptionA}`, roleDefinitionGuid: deletedRole, principalId: ID.app, principalType: 'ServicePrincipal' },
      { guid: 'a3', scope: '/providers/Microsoft.Capacity/reservationOrders/r-1', roleDefinitionGuid: ROLE.reader, principalId: ID.bob, principalType: 'User' },
      { guid: 'a4', scope: `/subscriptions/${subscriptionA}`, roleDefinitionGuid: ROLE.reader, principalId: 'dddd0000-0000-4000-8000-0000000000d2', principalType: 'Device' },
    ];
    azure.state.tenant = tenant;
    const outcome = await read(subscriptionTrack, assignmentsCursor);
    expect(outcome.kind).toBe('page');
    const byId = new Map(entitiesOf(outcome).map((e) => [`${e.kind} ${e.source_id}`, e]));

    expect(byId.get('Resource /')?.attributes).toMatchObject({ scope_type: 'root', subscription_id: null });
    expect(byId.get(`Entitlement /providers/microsoft.authorization/roledefinitions/${ROLE.owner}`)).toMatchObject({ display_name: 'Owner @ /' });
    expect(byId.get('Resource /providers/microsoft.capacity/reservationorders/r-1')?.attributes).toMatchObject({ scope_type: 'other', subscription_id: null, resource_group: null });
    expect(byId.get(`Entitlement /subscriptions/${subscriptionA}/providers/microsoft.authorization/roledefinitions/${deletedRole}`)).toMatchObject({
      display_name: `${deletedRole} @ /subscriptions/${subscriptionA}`,
      attributes: { role_name: null, role_type: null, actions: [], not_actions: [], data_actions: [], not_data_actions: [] },
    });
    expect([...byId.keys()].filter((k) => k.startsWith('Account ')).sort()).toEqual([`Account ${ID.app}`, `Account ${ID.alice}`, `Account ${ID.bob}`]);
    expect(outcome.kind === 'page' && outcome.relationships.some((r) => r.from.source_id.startsWith('dddd0000'))).toBe(false);
  });

  it('Reader removed between the subscription and its role assignments refuses the track with Reader to grant', async () => {
    const context = contextFor();
    const first = await read(subscriptionTrack, null, context);
    expect(first).toMatchObject({ kind: 'page', next: assignmentsCursor });
    azure.state.readerOn.delete(subscriptionA);
    expect(await read(subscriptionTrack, pageNext(first), context)).toEqual({ kind: 'refused', remediation: [missingReaderRole(subscriptionA, azureApp.clientId)] });
  });

  it('a page token ARM no longer accepts fails with its status and error code', async () => {
    const link = `${azure.url}/subscriptions/${subscriptionA}/providers/Microsoft.Authorization/roleAssignments?api-version=2022-04-01&$skipToken=expired`;
    expect(await read(subscriptionTrack, { phase: 'roleAssignments', link })).toEqual(armFailed('HTTP 400 InvalidSkipToken'));
  });

  describe('answers the fake never gives', () => {
    const bareArm = () => contextFor({ login: azure.url, graph: azure.url, arm: bare.url });
    const sub = `/subscriptions/${subscriptionA}`;
    const roleId = (guid: string) => `${sub}/providers/Microsoft.Authorization/roleDefinitions/${guid}`;
    const assignment = (properties: Record<string, unknown>) => ({ properties: { scope: sub, principalType: 'User', principalId: ID.alice, roleDefinitionId: roleId(ROLE.reader), ...properties } });

    it('a subscription answered without its name, tenant or state is named by its id', async () => {
      replies[sub] = json(200, { id: sub });
      expect(await read(subscriptionTrack, null, bareArm())).toEqual({
        kind: 'page',
        entities: [{ kind: 'CloudAccountBoundary', source_id: subscriptionA, display_name: subscriptionA, attributes: { provider: 'azure', subscription_id: subscriptionA, tenant_id: null, state: null } }],
        relationships: [],
        next: assignmentsCursor,
      });
    });

    it('a subscription of another tenant (401 InvalidAuthenticationTokenTenant) refuses as an unknown subscription; a bare 409 fails with its status', async () => {
      replies[sub] = json(401, { error: { code: 'InvalidAuthenticationTokenTenant', message: 'The access token is from the wrong issuer.' } });
      expect(await read(subscriptionTrack, null, bareArm())).toEqual({ kind: 'refused', remediation: [unknownSubscription(subscriptionA, azureApp.tenantId)] });
      replies[sub] = { status: 409 };
      expect(await read(subscriptionTrack, null, bareArm())).toEqual(armFailed('HTTP 409'));
    });

    it('assignments missing a scope, role or principal are skipped; role definitions of odd shapes map what they hold', async () => {
      replies[`${sub}/providers/Microsoft.Authorization/roleAssignments`] = json(200, {
        value: [
          assignment({ scope: undefined }),
          assignment({ roleDefinitionId: undefined }),
          assignment({ principalId: undefined }),
          assignment({ roleDefinitionId: roleId('r-no-properties') }),
          assignment({ roleDefinitionId: roleId('r-no-permissions') }),
          assignment({ roleDefinitionId: roleId('r-mixed') }),
        ],
      });
      replies[roleId('r-no-properties')] = json(200, { id: roleId('r-no-properties') });
      replies[roleId('r-no-permissions')] = json(200, { properties: { roleName: 'No permissions', permissions: 'none' } });
      replies[roleId('r-mixed')] = json(200, { properties: { roleName: 'Mixed', type: 'CustomRole', permissions: [null, 'x', { actions: 'not a list' }, { actions: ['b/read', 7, 'a/read'], notActions: ['a/delete'] }] } });
      const context = bareArm();
      const outcome = await read(subscriptionTrack, assignmentsCursor, context);
      const roles = entitiesOf(outcome).filter((e) => e.kind === 'Entitlement');
      const attributesOf = (guid: string) => roles.find((e) => e.source_id.endsWith(`/${guid}`))?.attributes;
      expect(roles).toHaveLength(3);
      expect(attributesOf('r-no-properties')).toMatchObject({ role_name: null, role_type: null, actions: [], not_actions: [] });
      expect(attributesOf('r-no-permissions')).toMatchObject({ role_name: 'No permissions', role_type: null, actions: [] });
      expect(attributesOf('r-mixed')).toMatchObject({ role_name: 'Mixed', role_type: 'CustomRole', actions: ['a/read', 'b/read'], not_actions: ['a/delete'], data_actions: [] });
      // Each definition was read once, the skipped assignments' Reader never.
      expect(outcome).toMatchObject({ kind: 'page', next: null });
      expect(context.session.size).toBeGreaterThanOrEqual(3);
    });

    it('a role definition read that is throttled or refused ends the page with that outcome', async () => {
      replies[`${sub}/providers/Microsoft.Authorization/roleAssignments`] = json(200, { value: [assignment({})] });
      replies[roleId(ROLE.reader)] = json(429, { error: { code: 'TooManyRequests' } }, { 'retry-after': '20' });
      expect(await read(subscriptionTrack, assignmentsCursor, bareArm())).toMatchObject({ kind: 'throttled' });
      replies[roleId(ROLE.reader)] = json(403, { error: { code: 'AuthorizationFailed' } });
      expect(await read(subscriptionTrack, assignmentsCursor, bareArm())).toEqual({ kind: 'refused', remediation: [missingReaderRole(subscriptionA, azureApp.clientId)] });
    });
  });
});

describe('cloud provider B discovery: tracks and cursors it never writes', () => {
  it('a saved cursor of another shape fails on either track, without a request', async () => {
    const notOurs = failed('the saved cursor is not one this connector writes');
    expect(await read('graph', { phase: 'devices' })).toEqual(notOurs);
    expect(await read('graph', graphCursor({ phase: 'members', pending: [] }))).toEqual(notOurs);
    expect(await read('graph', graphCursor({ phase: 'refusal', refused: ['Directory.ReadWrite.All'] }))).toEqual(notOurs);
    expect(await read(`subscription:${subscriptionA}`, 'https://example.test/next')).toEqual(notOurs);
    expect(azure.calls).toHaveLength(0);
  });

  it('a track that is not a subscription in scope fails', async () => {
    expect(await read('subscription:00000000-0000-4000-8000-000000000000', null)).toEqual(failed('track subscription:00000000-0000-4000-8000-000000000000 is not a subscription in scope'));
    expect(await read('devices', null)).toEqual(failed('track devices is not a subscription in scope'));
    expect(azure.calls).toHaveLength(0);
  });
});

function failed(detail: string): PageOutcome {
  return { kind: 'failed', remediation: [unexpectedAnswer('Microsoft Entra ID', detail)] };
}
