/**
 * What the fake Azure holds: a Microsoft Entra ID tenant (users, service principals, groups with
 * nested members, directory role definitions and assignments) and Azure subscriptions (role
 * assignments at every kind of scope, role definitions), in the shapes Microsoft Graph v1.0 and
 * Azure Resource Manager (Microsoft.Authorization 2022-04-01) answer.
 *
 * `sampleTenant()` is what the discovery tests read: one person with two accounts (same mail),
 * a guest, a disabled user, a group nested in another, a role-assignable group holding a
 * directory role, a directory role scoped to an administrative unit, ARM assignments at a
 * management group (seen from both subscriptions), a subscription, a resource group and a
 * resource, one to a group, and one to a principal deleted from the directory.
 */

export interface FakeEntraUser {
  id: string;
  displayName: string;
  userPrincipalName: string;
  mail: string | null;
  accountEnabled: boolean;
  userType: 'Member' | 'Guest';
}

export interface FakeEntraServicePrincipal {
  id: string;
  appId: string;
  displayName: string;
  servicePrincipalType: 'Application' | 'ManagedIdentity';
  accountEnabled: boolean;
  appOwnerOrganizationId: string | null;
}

export interface FakeEntraGroup {
  id: string;
  displayName: string;
  securityEnabled: boolean;
  mailEnabled: boolean;
  groupTypes: string[];
  isAssignableToRole: boolean;
  /** Direct members: user, service principal or group object ids. */
  members: string[];
}

export interface FakeDirectoryRole {
  id: string;
  displayName: string;
  isBuiltIn: boolean;
  isEnabled: boolean;
  templateId: string;
}

export interface FakeDirectoryRoleAssignment {
  id: string;
  principalId: string;
  roleDefinitionId: string;
  directoryScopeId: string;
}

export interface FakeArmRoleDefinition {
  guid: string;
  roleName: string;
  type: 'BuiltInRole' | 'CustomRole';
  actions: string[];
  notActions?: string[];
  dataActions?: string[];
}

export interface FakeArmRoleAssignment {
  guid: string;
  scope: string;
  roleDefinitionGuid: string;
  principalId: string;
  principalType: 'User' | 'Group' | 'ServicePrincipal' | 'ForeignGroup' | 'Device';
}

export interface FakeSubscription {
  displayName: string;
  state: 'Enabled' | 'Disabled' | 'Warned';
  /** Every assignment that applies to the subscription: at, above or below it. */
  roleAssignments: FakeArmRoleAssignment[];
}

export interface FakeTenant {
  users: FakeEntraUser[];
  servicePrincipals: FakeEntraServicePrincipal[];
  groups: FakeEntraGroup[];
  roleDefinitions: FakeDirectoryRole[];
  roleAssignments: FakeDirectoryRoleAssignment[];
  /** Role definitions of ARM, by guid (built-in ones exist in every subscription). */
  armRoleDefinitions: FakeArmRoleDefinition[];
  subscriptions: Record<string, FakeSubscription>;
}

export const ROLE = {
  globalAdministrator: '62e90394-69f5-4237-9190-012177145e10',
  globalReader: 'f2ef992c-3afb-46b9-b7cf-a126ee74c451',
  userAdministrator: 'fe930be7-5e62-47db-91af-98c3a49a38b1',
  applicationAdministrator: '9b895d92-2cd3-44c7-9d02-a6ac2d5ea5c3',
  owner: '8e3af657-a8ff-443c-a75c-2fe8c4bcb635',
  contributor: 'b24988ac-6180-42a0-ab88-20f7382dd24c',
  reader: 'acdd72a7-3385-48ef-bd42-f606fba81ae7',
  storageBlobDataReader: '2a2b9908-6ea1-4ae2-8e65-a410df84e7d1',
  deployer: '5d1e0f2a-9b3c-4d7e-8f60-1a2b3c4d5e6f',
} as const;

export const ID = {
  alice: 'a1a1a1a1-0000-4000-8000-000000000001',
  aliceAdmin: 'a1a1a1a1-0000-4000-8000-000000000002',
  bob: 'b0b0b0b0-0000-4000-8000-000000000003',
  carol: 'c0c0c0c0-0000-4000-8000-000000000004',
  dave: 'd0d0d0d0-0000-4000-8000-000000000005',
  deleted: 'dead0000-0000-4000-8000-000000000006',
  app: '5e5e5e5e-0000-4000-8000-000000000007',
  managedIdentity: '5e5e5e5e-0000-4000-8000-000000000008',
  tessera: '5e5e5e5e-0000-4000-8000-000000000009',
  engineering: '9a9a9a9a-0000-4000-8000-00000000000a',
  platform: '9a9a9a9a-0000-4000-8000-00000000000b',
  admins: '9a9a9a9a-0000-4000-8000-00000000000c',
  empty: '9a9a9a9a-0000-4000-8000-00000000000d',
} as const;

export const MANAGEMENT_GROUP = '/providers/Microsoft.Management/managementGroups/contoso-root';

export function sampleTenant(subscriptionA: string, subscriptionB: string, tessera: { clientId: string }): FakeTenant {
  const subA = `/subscriptions/${subscriptionA}`;
  const subB = `/subscriptions/${subscriptionB}`;
  const inherited: FakeArmRoleAssignment = { guid: 'aaaa0000-0000-4000-8000-00000000000e', scope: MANAGEMENT_GROUP, roleDefinitionGuid: ROLE.reader, principalId: ID.bob, principalType: 'User' };
  return {
    users: [
      { id: ID.alice, displayName: 'Alice Martin', userPrincipalName: 'alice@contoso.example', mail: 'Alice@Contoso.example', accountEnabled: true, userType: 'Member' },
      { id: ID.aliceAdmin, displayName: 'Alice Martin (admin)', userPrincipalName: 'alice.admin@contoso.example', mail: 'alice@contoso.example', accountEnabled: true, userType: 'Member' },
      { id: ID.bob, displayName: 'Bob Stone', userPrincipalName: 'Bob@contoso.example', mail: null, accountEnabled: true, userType: 'Member' },
      { id: ID.carol, displayName: 'Carol (Partner)', userPrincipalName: 'carol_partner.example#EXT#@contoso.onmicrosoft.com', mail: 'carol@partner.example', accountEnabled: true, userType: 'Guest' },
      { id: ID.dave, displayName: 'Dave Old', userPrincipalName: 'dave@contoso.example', mail: 'dave@contoso.example', accountEnabled: false, userType: 'Member' },
    ],
    servicePrincipals: [
      { id: ID.app, appId: '11111111-aaaa-4bbb-8ccc-000000000001', displayName: 'Orders API', servicePrincipalType: 'Application', accountEnabled: true, appOwnerOrganizationId: '3f2a9c1e-7b4d-4e8a-9c6b-1d2e3f4a5b6c' },
      { id: ID.managedIdentity, appId: '11111111-aaaa-4bbb-8ccc-000000000002', displayName: 'id-orders-worker', servicePrincipalType: 'ManagedIdentity', accountEnabled: true, appOwnerOrganizationId: null },
      { id: ID.tessera, appId: tessera.clientId, displayName: 'Tessera discovery', servicePrincipalType: 'Application', accountEnabled: true, appOwnerOrganizationId: '3f2a9c1e-7b4d-4e8a-9c6b-1d2e3f4a5b6c' },
    ],
    groups: [
      { id: ID.engineering, displayName: 'Engineering', securityEnabled: true, mailEnabled: false, groupTypes: [], isAssignableToRole: false, members: [ID.alice, ID.bob, ID.platform] },
      { id: ID.platform, displayName: 'Platform', securityEnabled: true, mailEnabled: true, groupTypes: ['Unified'], isAssignableToRole: false, members: [ID.dave, ID.app] },
      { id: ID.admins, displayName: 'Tenant Readers', securityEnabled: true, mailEnabled: false, groupTypes: [], isAssignableToRole: true, members: [ID.aliceAdmin] },
      { id: ID.empty, displayName: 'Empty', securityEnabled: true, mailEnabled: false, groupTypes: [], isAssignableToRole: false, members: [] },
    ],
    roleDefinitions: [
      { id: ROLE.globalAdministrator, displayName: 'Global Administrator', isBuiltIn: true, isEnabled: true, templateId: ROLE.globalAdministrator },
      { id: ROLE.globalReader, displayName: 'Global Reader', isBuiltIn: true, isEnabled: true, templateId: ROLE.globalReader },
      { id: ROLE.userAdministrator, displayName: 'User Administrator', isBuiltIn: true, isEnabled: true, templateId: ROLE.userAdministrator },
      { id: ROLE.applicationAdministrator, displayName: 'Application Administrator', isBuiltIn: true, isEnabled: true, templateId: ROLE.applicationAdministrator },
    ],
    roleAssignments: [
      { id: 'ra-1', principalId: ID.aliceAdmin, roleDefinitionId: ROLE.globalAdministrator, directoryScopeId: '/' },
      { id: 'ra-2', principalId: ID.admins, roleDefinitionId: ROLE.globalReader, directoryScopeId: '/' },
      { id: 'ra-3', principalId: ID.bob, roleDefinitionId: ROLE.userAdministrator, directoryScopeId: '/administrativeUnits/7c7c7c7c-0000-4000-8000-000000000001' },
      { id: 'ra-4', principalId: ID.app, roleDefinitionId: ROLE.applicationAdministrator, directoryScopeId: '/' },
    ],
    armRoleDefinitions: [
      { guid: ROLE.owner, roleName: 'Owner', type: 'BuiltInRole', actions: ['*'] },
      { guid: ROLE.contributor, roleName: 'Contributor', type: 'BuiltInRole', actions: ['*'], notActions: ['Microsoft.Authorization/*/Write', 'Microsoft.Authorization/*/Delete'] },
      { guid: ROLE.reader, roleName: 'Reader', type: 'BuiltInRole', actions: ['*/read'] },
      { guid: ROLE.storageBlobDataReader, roleName: 'Storage Blob Data Reader', type: 'BuiltInRole', actions: ['Microsoft.Storage/storageAccounts/blobServices/containers/read'], dataActions: ['Microsoft.Storage/storageAccounts/blobServices/containers/blobs/read'] },
      { guid: ROLE.deployer, roleName: 'Sandbox Deployer', type: 'CustomRole', actions: ['Microsoft.Resources/deployments/*', 'Microsoft.Web/sites/write'] },
    ],
    subscriptions: {
      [subscriptionA]: {
        displayName: 'Production',
        state: 'Enabled',
        roleAssignments: [
          { guid: 'aaaa0000-0000-4000-8000-000000000001', scope: subA, roleDefinitionGuid: ROLE.owner, principalId: ID.alice, principalType: 'User' },
          { guid: 'aaaa0000-0000-4000-8000-000000000002', scope: `${subA}/resourceGroups/rg-app`, roleDefinitionGuid: ROLE.contributor, principalId: ID.engineering, principalType: 'Group' },
          {
            guid: 'aaaa0000-0000-4000-8000-000000000003',
            scope: `${subA}/resourceGroups/rg-app/providers/Microsoft.Storage/storageAccounts/stapp`,
            roleDefinitionGuid: ROLE.storageBlobDataReader,
            principalId: ID.managedIdentity,
            principalType: 'ServicePrincipal',
          },
          { guid: 'aaaa0000-0000-4000-8000-000000000004', scope: subA, roleDefinitionGuid: ROLE.reader, principalId: ID.tessera, principalType: 'ServicePrincipal' },
          inherited,
          { guid: 'aaaa0000-0000-4000-8000-000000000005', scope: `${subA}/resourceGroups/rg-old`, roleDefinitionGuid: ROLE.reader, principalId: ID.deleted, principalType: 'User' },
        ],
      },
      [subscriptionB]: {
        displayName: 'Sandbox',
        state: 'Enabled',
        roleAssignments: [
          { guid: 'bbbb0000-0000-4000-8000-000000000001', scope: subB, roleDefinitionGuid: ROLE.reader, principalId: ID.tessera, principalType: 'ServicePrincipal' },
          inherited,
          { guid: 'bbbb0000-0000-4000-8000-000000000002', scope: `${subB}/resourceGroups/rg-sandbox`, roleDefinitionGuid: ROLE.deployer, principalId: ID.dave, principalType: 'User' },
        ],
      },
    },
  };
}

/** Members of a group, through nested groups, nested groups included (as `transitiveMembers`). */
export function transitiveMembers(tenant: FakeTenant, groupId: string): string[] {
  const seen = new Set<string>();
  const visit = (id: string) => {
    for (const member of tenant.groups.find((g) => g.id === id)?.members ?? []) {
      if (seen.has(member)) continue;
      seen.add(member);
      visit(member);
    }
  };
  visit(groupId);
  return [...seen];
}

/** A group as Graph shows it: its members are a relationship, not a property. */
export function withoutMembers({ members: _members, ...group }: FakeEntraGroup): Omit<FakeEntraGroup, 'members'> {
  return group;
}

/** The directory object behind an id, with its `@odata.type`, or undefined when it does not exist. */
export function directoryObject(tenant: FakeTenant, id: string): Record<string, unknown> | undefined {
  const user = tenant.users.find((u) => u.id === id);
  if (user) return { '@odata.type': '#microsoft.graph.user', ...user };
  const sp = tenant.servicePrincipals.find((s) => s.id === id);
  if (sp) return { '@odata.type': '#microsoft.graph.servicePrincipal', ...sp };
  const group = tenant.groups.find((g) => g.id === id);
  if (group) return { '@odata.type': '#microsoft.graph.group', ...withoutMembers(group) };
  return undefined;
}
