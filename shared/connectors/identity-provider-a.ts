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
import * as z from 'zod/mini';
import type { Connector, ConnectorContext, ConnectorTestResult, RemediationItem } from './connector';
import { identityProviderADiscovery } from './identity-provider-a-discovery';
import { errorCodeOf, identityProviderAScopes, missingScope, notAnOktaOrg, PROVIDER, rejectedToken, resetHint } from './okta-remediation';

import { neverThrows, resultOf, startTimer, throttled, timedOut, unexpectedAnswer, unreachable } from './outcome';
import { callProvider, stringField } from './provider-http';

const ORG_URL = /^https:\/\/[a-z0-9][a-z0-9-]{0,62}\.(okta|oktapreview|okta-emea|okta-gov)\.com\/?$|^https:\/\/[a-z0-9][a-z0-9-]{0,62}\.okta\.mil\/?$/;

export const IdentityProviderAConfigurationSchema = z.strictObject({
  org_url: z
    .string()
    .check(
      z.regex(ORG_URL, { message: 'must be the https URL of an Okta org, such as https://acme.okta.com' }),
      z.meta({ description: 'Okta-hosted URL of the org (https://<org>.okta.com), not a custom domain.', format: 'uri' }),
    ),
  api_token: z
    .string()
    .check(
      z.regex(/^[A-Za-z0-9_-]{20,128}$/, { message: 'must be an Okta API token' }),
      z.meta({ description: 'API token created by an admin with the Read-Only Administrator role.', writeOnly: true }),
    ),
});

export const IdentityProviderAScopeSchema = z.strictObject({
  group_filter: z
    .optional(z.string().check(z.minLength(1), z.maxLength(255)))
    .check(z.meta({ description: 'Discover only groups whose name starts with this text (Okta group search `q`).' })),
});

export type IdentityProviderAConfiguration = z.infer<typeof IdentityProviderAConfigurationSchema>;
export type IdentityProviderAScope = z.infer<typeof IdentityProviderAScopeSchema>;

export const identityProviderAExamples: { configuration: IdentityProviderAConfiguration; scope: IdentityProviderAScope } = {
  configuration: { org_url: 'https://acme.okta.com', api_token: '00EXAMPLEexampleEXAMPLEexample0123456789ab' },
  scope: { group_filter: 'eng-' },
};

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

export { identityProviderAScopes };

export const identityProviderAConnector: Connector<IdentityProviderAConfiguration, IdentityProviderAScope> = {
  test: ({ configuration, scope }, context) => neverThrows(PROVIDER, () => testIdentityProviderA(configuration, scope, context)),
  discover: identityProviderADiscovery,
};
