/**
 * What the Okta connector tells an admin to fix: the API scopes (and the admin role behind an
 * API token) that each read needs, a rejected token, a URL that is not an Okta org. Shared by
 * the test operation and discovery, so a refused read says the same thing in both.
 */
import type { RemediationItem } from '../connector';
import { stringField } from '../provider-http';
import type { OktaScope } from './integration';

export interface OktaApiScope {
  /** The OAuth 2.0 scope that guards the read (what an API service app would be granted). */
  scope: string;
  /** One read that needs it. */
  probe: (scope: OktaScope) => string;
  misses: string;
}

export const oktaApiScopes: readonly OktaApiScope[] = [
  { scope: 'okta.users.read', probe: () => '/api/v1/users?limit=1', misses: 'people and their status (Principal, Account)' },
  {
    scope: 'okta.groups.read',
    probe: (s) => `/api/v1/groups?limit=1${s.group_filter ? `&q=${encodeURIComponent(s.group_filter)}` : ''}`,
    misses: 'groups and their memberships (Entitlement, account_assigned_entitlement)',
  },
  { scope: 'okta.apps.read', probe: () => '/api/v1/apps?limit=1', misses: 'applications and their assignments (Resource, entitlement_grants_resource)' },
  { scope: 'okta.roles.read', probe: () => '/api/v1/iam/assignees/users?limit=1', misses: 'admin role assignments (who administers the org)' },
];

export const PROVIDER = 'Okta';

export function rejectedToken(errorCode: string | undefined): RemediationItem {
  return {
    category: 'credentials',
    message: `Okta rejected the API token${errorCode ? ` (${errorCode})` : ''}: it is wrong, revoked, or expired (Okta expires tokens unused for 30 days).`,
    action: "Create a new API token (Security > API > Tokens > Create token) while signed in as an admin with the Read-Only Administrator role, and update the connection's configuration.",
  };
}

export function missingScope(okta: OktaApiScope): RemediationItem {
  return {
    category: 'permissions',
    message: `The API token may not use ${okta.scope}.`,
    action:
      `Assign the Read-Only Administrator role (READ_ONLY_ADMIN) to the admin who created the API token (Security > Administrators > Add administrator): an API token acts with its creator's admin permissions. ` +
      `For an API service app, grant it the ${okta.scope} scope instead (Applications > the app > Okta API Scopes > Grant). Without it discovery would miss ${okta.misses}.`,
  };
}

export function notAnOktaOrg(): RemediationItem {
  return {
    category: 'configuration',
    message: 'The org URL does not answer like an Okta org (HTTP 404 on the management API).',
    action: 'Set org_url to the Okta-hosted URL of the org (https://<org>.okta.com, as in the Admin Console address without -admin).',
  };
}

/** Okta's X-Rate-Limit-Reset is the epoch second at which the window resets. */
export function resetHint(reset: string | null): string {
  const seconds = reset && /^\d+$/.test(reset) ? Number(reset) : undefined;
  return seconds === undefined ? 'retry in a minute' : `the limit resets at ${new Date(seconds * 1000).toISOString()}`;
}

export function errorCodeOf(body: unknown): string {
  const code = stringField(body, 'errorCode');
  return code ? ` ${code}` : '';
}

