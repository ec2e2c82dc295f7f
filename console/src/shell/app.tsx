/**
 * The console: picks the page for the path; pages behind sign-in wait for the session (an
 * access token in memory, or one from this tab's refresh token after a reload) and `/v1/me`.
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/client';
import { refreshSession, send } from '../api/send';
import { AccessHistoryPage } from '../access/access-history-page';
import { EntityPage } from '../access/entity-page';
import { PeoplePage } from '../access/people-page';
import { PersonPage } from '../access/person-page';
import { AccountPage } from '../account/account-page';
import { AuditLogPage } from '../audit/audit-log-page';
import { PermissionRequired } from '../components/permission-required';
import { StepUpDialog } from '../components/step-up-dialog';
import { ConnectionPage } from '../connections/connection-page';
import { ConnectionsPage } from '../connections/connections-page';
import { NewConnectionPage } from '../connections/new-connection-page';
import { HomePage } from '../home/home-page';
import { ForgotPasswordPage } from '../pages/forgot-password';
import { MfaChallengePage } from '../pages/mfa-challenge';
import { MfaEnrollPage } from '../pages/mfa-enroll';
import { ResetPasswordPage } from '../pages/reset-password';
import { RunPage } from '../runs/run-page';
import { SignInPage } from '../pages/sign-in';
import { SsoCallbackPage } from '../pages/sso-callback';
import { matchPath, navigate, useLocation, type Location } from '../routing/router';
import { CurrentUserProvider, type Me } from '../session/current-user';
import { session } from '../session/session';
import { RESET_PASSWORD_PATH, SSO_CALLBACK_PATH } from '../../../shared/console-paths';
import { MfaPolicyPage } from '../settings/mfa-policy-page';
import { SingleSignOnPage } from '../sso/single-sign-on-page';
import { TokensPage } from '../tokens/tokens-page';
import { UsersPage } from '../users/users-page';
import { WorkspacesPage } from '../workspaces/workspaces-page';
import { PageContent } from './page-content';
import { SignedInLayout } from './signed-in-layout';

export function App() {
  return <PublicOrSignedIn location={useLocation()} />;
}

function PublicOrSignedIn({ location }: { location: Location }) {
  const page = publicPage(location);
  return page ? <PageContent path={location.path}>{page}</PageContent> : <SignedIn location={location} />;
}

function publicPage(location: Location) {
  switch (location.path) {
    case '/sign-in': return <SignInPage />;
    case SSO_CALLBACK_PATH: return <SsoCallbackPage location={location} />;
    case '/mfa/enroll': return <MfaEnrollPage />;
    case '/mfa/challenge': return <MfaChallengePage />;
    case '/forgot-password': return <ForgotPasswordPage />;
    case RESET_PASSWORD_PATH: return <ResetPasswordPage location={location} />;
    default: return undefined;
  }
}

function SignedIn({ location }: { location: Location }) {
  const [me, setMe] = useState<Me | undefined>();
  const [failed, setFailed] = useState<string | undefined>();

  async function loadMe() {
    if (!session.accessToken() && !(await refreshSession())) return navigate('/sign-in', { replace: true });
    const outcome = await send(() => api.GET('/v1/me'));
    if (outcome.ok) setMe(outcome.data);
    else if (outcome.problem.status === 401) navigate('/sign-in', { replace: true });
    else setFailed(outcome.problem.detail);
  }

  useEffect(() => {
    void loadMe();
    return session.subscribe(() => {
      if (!session.accessToken()) setMe(undefined);
    });
  }, []);

  if (!me) return <main><h1>Tessera</h1><p role="status">{failed ?? 'Loading…'}</p></main>;
  return (
    <CurrentUserProvider value={{ me, reload: loadMe }}>
      <SignedInLayout path={location.path}>
        {/* Keyed by workspace: a switch remounts the page, which then reads the new workspace. */}
        <SignedInPage key={me.workspace_id} location={location} />
      </SignedInLayout>
      {/* Only signed-in pages act with an access token, the one thing a step-up can be asked for; the prompt reads /v1/me. */}
      <StepUpDialog />
    </CurrentUserProvider>
  );
}

function SignedInPage({ location }: { location: Location }) {
  const path = location.path;
  if (path === '/' || path === '') return <HomePage />;
  if (path === '/connections') return <ConnectionsPage />;
  if (path === '/connections/new') return <PermissionRequired permission="connections:write" title="New connection" what="create a connection"><NewConnectionPage /></PermissionRequired>;
  const run = matchPath('/connections/:id/runs/:run_id', path);
  if (run) return <RunPage key={run.run_id} connectionId={run.id!} runId={run.run_id!} />;
  const entity = matchPath('/connections/:id/entities/:entity_id', path);
  if (entity) return <EntityPage key={entity.entity_id} connectionId={entity.id!} entityId={entity.entity_id!} />;
  if (path === '/people') return <PeoplePage location={location} />;
  const person = matchPath('/people/:id', path);
  if (person) return <PersonPage key={person.id} personId={person.id!} />;
  if (path === '/access-history') return <AccessHistoryPage location={location} />;
  const connection = matchPath('/connections/:id', path);
  if (connection) return <ConnectionPage key={connection.id} id={connection.id!} />;
  if (path === '/tokens') return <TokensPage />;
  if (path === '/users') return <UsersPage />;
  if (path === '/audit') return <AuditLogPage key="workspace" scope="workspace" />;
  if (path === '/audit/identity') return <PermissionRequired permission="tenant_audit:read" title="Identity audit log" what="read the identity audit log"><AuditLogPage key="tenant" scope="tenant" /></PermissionRequired>;
  if (path === '/settings/mfa') return <PermissionRequired permission="mfa_policy:manage" title="MFA policy" what="manage the MFA policy"><MfaPolicyPage /></PermissionRequired>;
  if (path === '/workspaces') return <PermissionRequired permission="workspaces:manage" title="Workspaces" what="create workspaces and transfer their ownership"><WorkspacesPage /></PermissionRequired>;
  if (path === '/settings/sso') return <SingleSignOnPage />;
  if (path === '/account') return <AccountPage />;
  return <main><h1>Page not found</h1><p>There is no page at {path}.</p></main>;
}
