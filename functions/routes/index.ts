/**
 * The route table: one entry per endpoint, gathered from the route modules of this folder (one
 * module per route, `functions/routes/<handler>.ts`, so a function bundles its own route and
 * schemas only). The CDK stack makes one function and one API route of each entry, the local
 * host dispatches from it, the OpenAPI document is generated from it. A handler imports its own
 * route module, never this table, which only the openapi function reads whole
 * (test/unit/route-table.test.ts holds the handlers, the modules and the table to that).
 */
import type { RouteDefinition } from '../../shared/http/route';
import { route as health } from './health';
import { route as openapi } from './openapi';
import { route as jwks } from './jwks';
import { route as login } from './auth-login';
import { route as token } from './auth-token';
import { route as logout } from './auth-logout';
import { route as passwordForgot } from './auth-password-forgot';
import { route as passwordReset } from './auth-password-reset';
import { route as idpGet } from './idp-get';
import { route as idpCreate } from './idp-create';
import { route as idpUpdate } from './idp-update';
import { route as idpDelete } from './idp-delete';
import { route as domainsList } from './domains-list';
import { route as domainsCreate } from './domains-create';
import { route as domainsVerify } from './domains-verify';
import { route as domainsDelete } from './domains-delete';
import { route as discover } from './auth-discover';
import { route as ssoStart } from './sso-start';
import { route as ssoCallback } from './sso-callback';
import { route as ssoCallbackPost } from './sso-callback-post';
import { route as ssoMetadata } from './sso-metadata';
import { route as mfaEnrollStart } from './mfa-enroll-start';
import { route as mfaEnrollConfirm } from './mfa-enroll-confirm';
import { route as mfaChallenge } from './mfa-challenge';
import { route as mfaBackupCodesRegen } from './mfa-backup-codes-regen';
import { route as mfaPolicyGet } from './mfa-policy-get';
import { route as mfaPolicyUpdate } from './mfa-policy-update';
import { route as tokensCreate } from './tokens-create';
import { route as tokensList } from './tokens-list';
import { route as tokensRotate } from './tokens-rotate';
import { route as tokensRevoke } from './tokens-revoke';
import { route as permissionsList } from './permissions-list';
import { route as me } from './me-get';
import { route as mePassword } from './me-password';
import { route as meFederatedIdentitiesList } from './me-federated-identities-list';
import { route as meFederatedIdentityLink } from './me-federated-identity-link';
import { route as usersList } from './users-list';
import { route as usersCreate } from './users-create';
import { route as usersGet } from './users-get';
import { route as usersUpdate } from './users-update';
import { route as usersDisable } from './users-disable';
import { route as usersEnable } from './users-enable';
import { route as usersMfaReset } from './users-mfa-reset';
import { route as userFederatedIdentitiesList } from './user-federated-identities-list';
import { route as userFederatedIdentityUnlink } from './user-federated-identity-unlink';
import { route as workspacesList } from './workspaces-list';
import { route as workspacesCreate } from './workspaces-create';
import { route as workspacesOwnerTransfer } from './workspaces-owner-transfer';
import { route as integrationsList } from './integrations-list';
import { route as connectionsList } from './connections-list';
import { route as connectionsCreate } from './connections-create';
import { route as connectionsGet } from './connections-get';
import { route as connectionsUpdate } from './connections-update';
import { route as connectionsDelete } from './connections-delete';
import { route as connectionsTest } from './connections-test';
import { route as connectionTestsList } from './connection-tests-list';
import { route as connectionRunsCreate } from './connection-runs-create';
import { route as connectionRunsList } from './connection-runs-list';
import { route as connectionRunsGet } from './connection-runs-get';
import { route as connectionRunChangesList } from './connection-run-changes-list';
import { route as connectionEntitiesList } from './connection-entities-list';
import { route as connectionEntityGet } from './connection-entity-get';
import { route as connectionRelationshipsList } from './connection-relationships-list';
import { route as entityAccessList } from './entity-access-list';
import { route as peopleList } from './people-list';
import { route as peopleGet } from './people-get';
import { route as personAccessList } from './person-access-list';
import { route as accessChangesList } from './access-changes-list';
import { route as tenantAuditEventsList } from './tenant-audit-events-list';
import { route as auditEventsList } from './audit-events-list';
import { route as exportsCreate } from './exports-create';
import { route as exportsGet } from './exports-get';
import { route as exportsContent } from './exports-content';

export const routes = {
  health,
  openapi,
  jwks,
  login,
  token,
  logout,
  passwordForgot,
  passwordReset,
  idpGet,
  idpCreate,
  idpUpdate,
  idpDelete,
  domainsList,
  domainsCreate,
  domainsVerify,
  domainsDelete,
  discover,
  ssoStart,
  ssoCallback,
  ssoCallbackPost,
  ssoMetadata,
  mfaEnrollStart,
  mfaEnrollConfirm,
  mfaChallenge,
  mfaBackupCodesRegen,
  mfaPolicyGet,
  mfaPolicyUpdate,
  tokensCreate,
  tokensList,
  tokensRotate,
  tokensRevoke,
  permissionsList,
  me,
  mePassword,
  meFederatedIdentitiesList,
  meFederatedIdentityLink,
  usersList,
  usersCreate,
  usersGet,
  usersUpdate,
  usersDisable,
  usersEnable,
  usersMfaReset,
  userFederatedIdentitiesList,
  userFederatedIdentityUnlink,
  workspacesList,
  workspacesCreate,
  workspacesOwnerTransfer,
  integrationsList,
  connectionsList,
  connectionsCreate,
  connectionsGet,
  connectionsUpdate,
  connectionsDelete,
  connectionsTest,
  connectionTestsList,
  connectionRunsCreate,
  connectionRunsList,
  connectionRunsGet,
  connectionRunChangesList,
  connectionEntitiesList,
  connectionEntityGet,
  connectionRelationshipsList,
  entityAccessList,
  peopleList,
  peopleGet,
  personAccessList,
  accessChangesList,
  tenantAuditEventsList,
  auditEventsList,
  exportsCreate,
  exportsGet,
  exportsContent,
} satisfies Record<string, RouteDefinition>;

export type RouteName = keyof typeof routes;

export const routeList: readonly RouteDefinition[] = Object.values(routes);

/**
 * The function behind the API's `$default` route, which API Gateway hands every request no
 * entry above takes: it answers problem+json 404, or 405 with `Allow` (it reads this table).
 */
export const DEFAULT_ROUTE_HANDLER = 'route-not-found';
