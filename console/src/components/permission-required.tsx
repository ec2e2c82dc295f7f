/**
 * A page opened by someone whose role may not use it (a deep link, a bookmark, a link shared by
 * an admin): the page's name and what role it needs, instead of a form the API would refuse on
 * submit. The navigation already hides such pages; this is for their addresses.
 */
import type { ComponentChildren } from 'preact';
import { Link } from '../routing/link';
import { useCan, useCurrentUser } from '../session/current-user';
import { PageHeader } from './page-header';

/** Who holds a permission, in the words of the roles (console/README.md, shared/identity/permissions.ts). */
const NEEDED_ROLE: Record<string, string> = {
  'connections:write': 'connector builder or admin',
  'connections:test': 'connector builder or admin',
  'connections:run': 'connector builder or admin',
  'users:manage': 'tenant administrator',
  'idp:manage': 'tenant administrator',
  'mfa_policy:manage': 'tenant administrator',
  'workspaces:manage': 'tenant administrator',
  'tenant_audit:read': 'tenant administrator',
};

export function neededRole(permission: string): string {
  return NEEDED_ROLE[permission] ?? 'viewer';
}

export function PermissionRequired({ permission, title, what, children }: {
  permission: string;
  title: string;
  /** What the page does, completing "To …, you need …" (e.g. "create a connection"). */
  what: string;
  children: ComponentChildren;
}) {
  const { me } = useCurrentUser();
  if (useCan(permission)) return <>{children}</>;
  return (
    <main>
      <PageHeader title={title} />
      <p class="notice form-error" role="status">
        To {what}, you need the <strong>{neededRole(permission)}</strong> role. You are {me.role ? `a ${me.role.replaceAll('_', ' ')}` : 'without a role'} in this workspace: ask a tenant administrator if you need it.
      </p>
      <p><Link href="/">Back to the home page</Link></p>
    </main>
  );
}
