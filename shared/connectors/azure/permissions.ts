/**
 * What the Azure connector needs: one Microsoft Graph application permission per kind of
 * directory object it reads (each with a read that needs it and nothing broader, for the test)
 * and the ARM actions of the built-in Reader role it uses per subscription. The catalog's
 * `required_permissions`, the test's probes and discovery's refusals all read these lists.
 */
import type { GraphPermission } from './remediation';

export const azureGraphPermissions: readonly GraphPermission[] = [
  {
    permission: 'User.Read.All',
    appRoleId: 'df021288-bdef-4463-88db-98f22de89214',
    probe: '/v1.0/users?$top=1&$select=id',
    misses: 'users and their accounts (Principal, Account)',
  },
  {
    permission: 'GroupMember.Read.All',
    appRoleId: '98830695-27a2-44f7-8c18-0c3ebc9698f6',
    probe: '/v1.0/groups?$top=1&$select=id',
    misses: 'groups and their memberships (Entitlement, account_assigned_entitlement)',
  },
  {
    permission: 'Application.Read.All',
    appRoleId: '9a5d68dd-52b0-4cc2-bd40-abcf44ac3a30',
    probe: '/v1.0/servicePrincipals?$top=1&$select=id',
    misses: 'service principals (their Account entities)',
  },
  {
    permission: 'RoleManagement.Read.Directory',
    appRoleId: '483bed4a-2ad3-4361-a73b-c83ccdbdc53c',
    probe: '/v1.0/roleManagement/directory/roleAssignments?$top=1',
    misses: 'Microsoft Entra directory role assignments (Global Administrator and the other admin roles)',
  },
];

/** The ARM actions the built-in Reader role grants and discovery uses, for the catalog. */
export const azureArmPermissions: readonly string[] = [
  'Microsoft.Resources/subscriptions/read',
  'Microsoft.Authorization/roleAssignments/read',
  'Microsoft.Authorization/roleDefinitions/read',
];
