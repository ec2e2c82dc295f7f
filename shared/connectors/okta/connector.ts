/**
 * The Okta connector (identity provider A): its connection test and its discovery. Apart from the
 * catalog entry (`integration.ts`: schemas, examples, permissions), so that the functions that only
 * validate a configuration do not bundle the provider clients.
 */
import type { Connector, ConnectorContext, ConnectorTestResult, RemediationItem } from '../connector';
import { oktaDiscovery } from './discovery';
import { errorCodeOf, oktaApiScopes, missingScope, notAnOktaOrg, PROVIDER, rejectedToken, resetHint } from './remediation';

import { neverThrows, resultOf, startTimer, throttled, timedOut, unexpectedAnswer, unreachable } from '../outcome';
import { callProvider, stringField } from '../provider-http';
import { tokenWithoutAdminRole } from './token-rights';
import { type OktaConfiguration, type OktaScope } from './integration';

async function testIdentityProviderA(
  configuration: OktaConfiguration,
  scope: OktaScope,
  context: ConnectorContext,
): Promise<ConnectorTestResult> {
  const elapsed = startTimer();
  const base = (context.endpoints?.okta ?? configuration.org_url).replace(/\/+$/, '');
  const items = await Promise.all(
    oktaApiScopes.map(async (okta): Promise<RemediationItem[]> => {
      const answer = await callProvider(`${base}${okta.probe(scope)}`, {
        headers: { authorization: `SSWS ${configuration.api_token}` },
        signal: context.signal,
      });
      if (answer.kind === 'timeout') return [timedOut(PROVIDER, elapsed())];
      if (answer.kind === 'unreachable') return [unreachable(PROVIDER, answer.reason)];
      switch (answer.status) {
        case 200: {
          // An empty user list may be a token without an admin role rather than an empty org.
          const lacking = okta.scope === 'okta.users.read' && Array.isArray(answer.body) && answer.body.length === 0 ? await tokenWithoutAdminRole({ base, apiToken: configuration.api_token, signal: context.signal }) : undefined;
          return lacking ? [lacking] : [];
        }
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


export const oktaConnector: Connector<OktaConfiguration, OktaScope> = {
  test: ({ configuration, scope }, context) => neverThrows(PROVIDER, () => testIdentityProviderA(configuration, scope, context)),
  discover: oktaDiscovery,
};
