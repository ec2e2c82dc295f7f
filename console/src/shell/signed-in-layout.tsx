/**
 * The frame of every signed-in page: a bar (the brand, the workspace switcher, who is signed in,
 * sign out) and the navigation by permission. On a narrow screen the navigation and the account
 * controls fold behind a Menu button (a disclosure: `aria-expanded`, closed again by following
 * a link); on a wide one they are always shown, the navigation on one row.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { Link } from '../routing/link';
import { navigate } from '../routing/router';
import { useCurrentUser } from '../session/current-user';
import { endSession } from '../session/sign-out';
import { PageContent } from './page-content';
import { WorkspaceSwitcher } from './workspace-switcher';

export function SignedInLayout({ path, children }: { path: string; children: ComponentChildren }) {
  const { me, reload } = useCurrentUser();
  const can = (permission: string) => me.permissions.includes(permission);
  const [menuOpen, setMenuOpen] = useState(false);
  const close = () => setMenuOpen(false);

  async function signOut() {
    await endSession();
    navigate('/sign-in');
  }

  const item = (href: string, label: string, current: boolean) => (
    <li key={href}><Link href={href} current={current} onFollow={close}>{label}</Link></li>
  );

  return (
    <>
      <a class="skip" href="#content">Skip to content</a>
      <header class="site-header">
        <div class="site-bar">
          <strong class="brand">Tessera</strong>
          <button type="button" class="menu-toggle secondary" aria-expanded={menuOpen ? 'true' : 'false'} aria-controls="site-menu" onClick={() => setMenuOpen(!menuOpen)}>
            Menu
          </button>
        </div>
        <div id="site-menu" class="site-menu" data-open={menuOpen ? 'true' : 'false'}>
          <nav aria-label="Main" class="site-nav">
            <ul>
              {item('/', 'Home', path === '/')}
              {can('connections:read') && item('/connections', 'Connections', path.startsWith('/connections'))}
              {can('connections:read') && item('/people', 'People', path.startsWith('/people'))}
              {can('connections:read') && item('/access-history', 'Access history', path === '/access-history')}
              {can('tokens:manage') && item('/tokens', 'Access tokens', path === '/tokens')}
              {can('users:read') && item('/users', 'Users', path === '/users')}
              {can('audit:read') && item('/audit', 'Workspace audit log', path === '/audit')}
              {can('tenant_audit:read') && item('/audit/identity', 'Identity audit log', path === '/audit/identity')}
              {can('mfa_policy:manage') && item('/settings/mfa', 'MFA policy', path === '/settings/mfa')}
              {can('idp:manage') && item('/settings/sso', 'Single sign-on', path === '/settings/sso')}
              {can('workspaces:manage') && item('/workspaces', 'Workspaces', path === '/workspaces')}
            </ul>
          </nav>
          <div class="account">
            {/* Keyed by path: the list is read again after a page (the workspaces page) may have changed it. */}
            <WorkspaceSwitcher key={path} onSwitched={() => void reload()} />
            <span class="user-email">{me.email} ({me.role ?? 'no role'})</span>
            <Link href="/account" current={path === '/account'} onFollow={close}>Your account</Link>
            <button type="button" class="secondary outline" onClick={() => void signOut()}>Sign out</button>
          </div>
        </div>
      </header>
      <PageContent path={path}>{children}</PageContent>
    </>
  );
}
