/**
 * The permission registry and the role → permission mapping: the single source of truth for
 * what a role may do and what a token scope may name.
 */
import type { Role } from '../store/identity-enums';

export const permissionRegistry = {
  'integrations:read': 'Read the integrations catalog',
  'connections:read': 'Read connections of the workspace (never their secrets)',
  'connections:write': 'Create, edit and delete connections of the workspace',
  'connections:test': 'Run the test operation of a connection',
  'connections:run': 'Start a discovery run of a connection',
  'audit:read': 'Read the audit events of the workspace',
  'tokens:manage': 'Create, list, rotate and revoke your own personal access tokens',
  'users:read': 'Read users of the tenant',
  'users:manage': 'Create, edit and disable users of the tenant',
  'idp:manage': 'Manage the tenant identity provider configuration',
  'mfa_policy:manage': 'Manage the tenant MFA policy',
  'workspaces:manage': 'Create workspaces and transfer their ownership',
  'tenant_audit:read': 'Read the identity audit log of the tenant: sign-ins, MFA, tokens, passwords, users, IdP and policy changes',
} as const;

export type Permission = keyof typeof permissionRegistry;

export const allPermissions = Object.keys(permissionRegistry) as Permission[];

const everyRole: Permission[] = ['integrations:read', 'connections:read', 'audit:read', 'users:read', 'tokens:manage'];

/** Held only through a tenant-scope `admin` assignment, never through a workspace role. */
export const tenantAdministrationPermissions: Permission[] = ['users:manage', 'idp:manage', 'mfa_policy:manage', 'workspaces:manage', 'tenant_audit:read'];

const workspaceRolePermissions: Record<Role, Permission[]> = {
  viewer: everyRole,
  connector_builder: [...everyRole, 'connections:write', 'connections:test', 'connections:run'],
  admin: allPermissions.filter((p) => !tenantAdministrationPermissions.includes(p)),
};

export function isPermission(value: string): value is Permission {
  return Object.hasOwn(permissionRegistry, value);
}

/**
 * A user's permissions in one workspace: those of the workspace role, plus the tenant
 * administration permissions when the user is a tenant admin. A tenant admin without a
 * workspace role still administers the tenant and reads like an admin.
 */
export function permissionsFor(workspaceRole: Role | undefined, tenantAdmin: boolean): Permission[] {
  const granted = new Set<Permission>(workspaceRole ? workspaceRolePermissions[workspaceRole] : []);
  if (tenantAdmin) for (const p of allPermissions) granted.add(p);
  return allPermissions.filter((p) => granted.has(p));
}

/** Effective permissions of a request: the user's permissions ∩ the credential's scopes. */
export function intersectScopes(userPermissions: readonly Permission[], scopes: readonly string[]): Permission[] {
  const wanted = new Set(scopes);
  return userPermissions.filter((p) => wanted.has(p));
}
