/** The frame of every signed-in page: navigation (by permission), the workspace switcher, sign out. */
import type { ComponentChildren } from 'preact';
import { Link } from '../routing/link';
import { navigate } from '../routing/router';
import { useCurrentUser } from '../session/current-user';
import { endSession } from '../session/sign-out';
import { PageContent } from './page-content';
import { WorkspaceSwitcher } from './workspace-switcher';

export function SignedInLayout({ path, children }: { path: string; children: ComponentChildren }) {
  const { me, reload } = useCurrentUser();
  const can = (permission: string) => me.permissions.includes(permission);

  async function signOut() {
    await endSession();
    navigate('/sign-in');
  }

  return (
    <>
      <a class="skip" href="#content">Skip to content</a>
      <header>
        <nav aria-label="Main">
          <strong class="brand">Tessera</strong>
          {can('connections:read') && <Link href="/connections" current={path.startsWith('/connections')}>Connections</Link>}
          {can('connections:read') && <Link href="/people" current={path.startsWith('/people')}>People</Link>}
          {can('connections:read') && <Link href="/access-history" current={path === '/access-history'}>Access history</Link>}
          {can('tokens:manage') && <Link href="/tokens" current={path === '/tokens'}>Access tokens</Link>}
          {can('users:read') && <Link href="/users" current={path === '/users'}>Users</Link>}
          {can('audit:read') && <Link href="/audit" current={path === '/audit'}>Workspace audit log</Link>}
          {can('tenant_audit:read') && <Link href="/audit/identity" current={path === '/audit/identity'}>Identity audit log</Link>}
          {can('mfa_policy:manage') && <Link href="/settings/mfa" current={path === '/settings/mfa'}>MFA policy</Link>}
          {can('idp:manage') && <Link href="/settings/sso" current={path === '/settings/sso'}>Single sign-on</Link>}
          {can('workspaces:manage') && <Link href="/workspaces" current={path === '/workspaces'}>Workspaces</Link>}
        </nav>
        <div class="account">
          {/* Keyed by path: the list is read again after a page (the workspaces page) may have changed it. */}
          <WorkspaceSwitcher key={path} onSwitched={() => void reload()} />
          <span>{me.email} ({me.role ?? 'no role'})</span>
          <Link href="/account" current={path === '/account'}>Your account</Link>
          <button type="button" onClick={() => void signOut()}>Sign out</button>
        </div>
      </header>
      <PageContent path={path}>{children}</PageContent>
    </>
  );
}
