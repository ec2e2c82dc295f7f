import { describe, expect, it } from 'vitest';
import { allPermissions, intersectScopes, permissionsFor, tenantAdministrationPermissions } from '../../shared/identity/permissions';

describe('role → permission mapping (API.md "Roles and permissions")', () => {
  const common = ['integrations:read', 'connections:read', 'audit:read', 'users:read', 'tokens:manage'];

  it('every role holds the read permissions and its own tokens', () => {
    for (const role of ['viewer', 'connector_builder', 'admin'] as const) expect(permissionsFor(role, false)).toEqual(expect.arrayContaining(common));
  });

  it('viewer is read-only', () => {
    expect(permissionsFor('viewer', false).sort()).toEqual([...common].sort());
  });

  it('connector_builder adds write, test and run', () => {
    expect(permissionsFor('connector_builder', false).sort()).toEqual([...common, 'connections:write', 'connections:test', 'connections:run'].sort());
  });

  it('tenant administration comes only from the tenant-scope admin', () => {
    for (const p of tenantAdministrationPermissions) expect(permissionsFor('admin', false)).not.toContain(p);
    expect(permissionsFor('admin', true).sort()).toEqual([...allPermissions].sort());
    expect(permissionsFor(undefined, false)).toEqual([]);
  });

  it('effective permissions are the intersection with the scopes', () => {
    expect(intersectScopes(permissionsFor('viewer', false), ['connections:read', 'connections:write'])).toEqual(['connections:read']);
    expect(intersectScopes(permissionsFor('admin', true), [])).toEqual([]);
  });
});
