/**
 * Identity provider A (an Okta org): schemas, the API scopes discovery needs, and the test
 * operation as a real client of the org's management API (`Authorization: SSWS <token>`), one
 * read per scope so each refusal names the scope (or admin role) that is missing.
 *
 * The org URL must be an Okta-hosted https origin: the service sends the API token to it, so a
 * free-form URL would let a tenant aim that call at any host the service can reach (SSRF).
 * Tests and local mode point the connector elsewhere with `context.endpoints.okta`, which comes
 * from the deployment's configuration, never from a tenant.
 */
import * as z from 'zod';
import type { Connector, ConnectorContext, ConnectorTestResult, RemediationItem } from './connector';
import { neverThrows, resultOf, startTimer, throttled, timedOut, unexpectedAnswer, unreachable } from './outcome';
import { callProvider, stringField } from './provider-http';

const ORG_URL = /^https:\/\/[a-z0-9][a-z0-9-]{0,62}\.(okta|oktapreview|okta-emea|okta-gov)\.com\/?$|^https:\/\/[a-z0-9][a-z0-9-]{0,62}\.okta\.mil\/?$/;

export const IdentityProviderAConfigurationSchema = z.strictObject({
  org_url: z
    .string()
    .regex(ORG_URL, { message: 'must be the https URL of an Okta org, such as https://acme.okta.com' })
    .meta({ description: 'Okta-hosted URL of the org (https://<org>.okta.com), not a custom domain.', format: 'uri' }),
  api_token: z
    .string()
    .regex(/^[A-Za-z0-9_-]{20,128}$/, { message: 'must be an Okta API token' })
    .meta({ description: 'API token created by an admin with the Read-Only Administrator role.', writeOnly: true }),
});

export const IdentityProviderAScopeSchema = z.strictObject({
  group_filter: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .meta({ description: 'Discover only groups whose name starts with this text (Okta group search `q`).' }),
});

export type IdentityProviderAConfiguration = z.infer<typeof IdentityProviderAConfigurationSchema>;
export type IdentityProviderAScope = z.infer<typeof IdentityProviderAScopeSchema>;

export const identityProviderAExamples: { configuration: IdentityProviderAConfiguration; scope: IdentityProviderAScope } = {
  configuration: { org_url: 'https://acme.okta.com', api_token: '00EXAMPLEexampleEXAMPLEexample0123456789ab' },
  scope: { group_filter: 'eng-' },
};

export interface OktaScope {
  /** The OAuth 2.0 scope that guards the read (what an API service app would be granted). */
  scope: string;
  /** One read that needs it. */
  probe: (scope: IdentityProviderAScope) => string;
  misses: string;
}

export const identityProviderAScopes: readonly OktaScope[] = [
  { scope: 'okta.users.read', probe: () => '/api/v1/users?limit=1', misses: 'people and their status (Principal, Account)' },
  {
    scope: 'okta.groups.read',
    probe: (s) => `/api/v1/groups?limit=1${s.group_filter ? `&q=${encodeURIComponent(s.group_filter)}` : ''}`,
    misses: 'groups and their memberships (Entitlement, account_assigned_entitlement)',
  },
  { scope: 'okta.apps.read', probe: () => '/api/v1/apps?limit=1', misses: 'applications and their assignments (Resource, entitlement_grants_resource)' },
  { scope: 'okta.roles.read', probe: () => '/api/v1/iam/assignees/users?limit=1', misses: 'admin role assignments (who administers the org)' },
];

const PROVIDER = 'Okta';

async function testIdentityProviderA(
  configuration: IdentityProviderAConfiguration,
  scope: IdentityProviderAScope,
  context: ConnectorContext,
): Promise<ConnectorTestResult> {
  const elapsed = startTimer();
  const base = (context.endpoints?.okta ?? configuration.org_url).replace(/\/+$/, '');
  const items = await Promise.all(
    identityProviderAScopes.map(async (okta): Promise<RemediationItem[]> => {
      const answer = await callProvider(`${base}${okta.probe(scope)}`, {
        headers: { authorization: `SSWS ${configuration.api_token}` },
        signal: context.signal,
      });
      if (answer.kind === 'timeout') return [timedOut(PROVIDER, elapsed())];
      if (answer.kind === 'unreachable') return [unreachable(PROVIDER, answer.reason)];
      switch (answer.status) {
        case 200:
          return [];
        case 401:
          return [rejectedToken(stringField(answer.body, 'errorCode'))];
        case 403:
          return [missingScope(okta)];
        case 429:
          return [throttled(PROVIDER, resetHint(answer.headers.get('x-rate-limit-reset')))];
        case 404:
          return [notAnOktaOrg()];
        default:
          return [unexpectedAnswer(PROVIDER, `HTTP ${answer.status}${errorCodeOf(answer.body)}`)];
      }
    }),
  );
  return resultOf(items.flat());
}

function rejectedToken(errorCode: string | undefined): RemediationItem {
  return {
    category: 'credentials',
    message: `Okta rejected the API token${errorCode ? ` (${errorCode})` : ''}: it is wrong, revoked, or expired (Okta expires tokens unused for 30 days).`,
    action: "Create a new API token (Security > API > Tokens > Create token) while signed in as an admin with the Read-Only Administrator role, and update the connection's configuration.",
  };
}

function missingScope(okta: OktaScope): RemediationItem {
  return {
    category: 'permissions',
    message: `The API token may not use ${okta.scope}.`,
    action:
      `Assign the Read-Only Administrator role (READ_ONLY_ADMIN) to the admin who created the API token (Security > Administrators > Add administrator): an API token acts with its creator's admin permissions. ` +
      `For an API service app, grant it the ${okta.scope} scope instead (Applications > the app > Okta API Scopes > Grant). Without it discovery would miss ${okta.misses}.`,
  };
}

function notAnOktaOrg(): RemediationItem {
  return {
    category: 'configuration',
    message: 'The org URL does not answer like an Okta org (HTTP 404 on the management API).',
    action: 'Set org_url to the Okta-hosted URL of the org (https://<org>.okta.com, as in the Admin Console address without -admin).',
  };
}

/** Okta's X-Rate-Limit-Reset is the epoch second at which the window resets. */
function resetHint(reset: string | null): string {
  const seconds = reset && /^\d+$/.test(reset) ? Number(reset) : undefined;
  return seconds === undefined ? 'retry in a minute' : `the limit resets at ${new Date(seconds * 1000).toISOString()}`;
}

function errorCodeOf(body: unknown): string {
  const code = stringField(body, 'errorCode');
  return code ? ` ${code}` : '';
}

export const identityProviderAConnector: Connector<IdentityProviderAConfiguration, IdentityProviderAScope> = {
  test: ({ configuration, scope }, context) => neverThrows(PROVIDER, () => testIdentityProviderA(configuration, scope, context)),
  // Placeholder until this connector's discovery lands: every run of it fails, saying so.
  discover: {
    tracks: () => [{ name: 'all' }],
    readPage: () =>
      Promise.resolve({
        kind: 'failed',
        remediation: [{ category: 'configuration', message: 'Okta discovery is not available in this version', action: 'Use the test operation until discovery ships' }],
      }),
  },
};
