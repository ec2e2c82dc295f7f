/**
 * The Microsoft Entra ID and Azure RBAC connector (cloud provider B): its connection test and its discovery. Apart from the
 * catalog entry (`integration.ts`: schemas, examples, permissions), so that the functions that only
 * validate a configuration do not bundle the provider clients.
 */
import type { Connector, ConnectorContext, ConnectorTestResult, RemediationItem } from '../connector';
import { missingGraphPermission, missingReaderRole, tokenNotAccepted, unknownSubscription, type GraphPermission } from './remediation';
import { azureGraphPermissions } from './permissions';
import { ARM_SCOPE, GRAPH_SCOPE, azureEndpoints, type AzureEndpoints } from './endpoints';
import { answerItem, requestToken, transportItem, type Token } from './token';
import { azureDiscovery } from './discovery';
import { neverThrows, resultOf, startTimer } from '../outcome';
import { collection } from './discovery-http';
import { callProvider, stringField } from '../provider-http';
import { type AzureConfiguration, type AzureScope } from './integration';

const ARM_API_VERSION = '2022-04-01';
/** Up to 100 subscriptions: a few reads at a time stay polite to ARM's per-principal limits. */
const ARM_CONCURRENCY = 8;

interface AzureTest {
  configuration: AzureConfiguration;
  signal: AbortSignal;
  endpoints: AzureEndpoints;
  elapsed: () => number;
}

async function testCloudProviderB(configuration: AzureConfiguration, scope: AzureScope, context: ConnectorContext): Promise<ConnectorTestResult> {
  const test: AzureTest = {
    configuration,
    signal: context.signal,
    endpoints: azureEndpoints(context.endpoints),
    elapsed: startTimer(),
  };
  const graphToken = await requestTestToken(test, GRAPH_SCOPE);
  if (!graphToken.ok) return resultOf([graphToken.item]);
  const armToken = await requestTestToken(test, ARM_SCOPE);
  if (!armToken.ok) return resultOf([armToken.item]);

  const [graphItems, armItems] = await Promise.all([
    Promise.all(azureGraphPermissions.map((graph) => probeGraph(test, graphToken.accessToken, graph))),
    mapWithConcurrency(scope.subscription_ids, ARM_CONCURRENCY, (subscriptionId) => probeSubscription(test, armToken.accessToken, subscriptionId)),
  ]);
  return resultOf([...graphItems.flat(), ...armItems.flat()]);
}

function requestTestToken(test: AzureTest, scope: string): Promise<Token> {
  return requestToken({ configuration: test.configuration, login: test.endpoints.login, scope, signal: test.signal, elapsed: test.elapsed });
}

async function probeGraph(test: AzureTest, accessToken: string, graph: GraphPermission): Promise<RemediationItem[]> {
  const answer = await callProvider(`${test.endpoints.graph}${graph.probe}`, { headers: { authorization: `Bearer ${accessToken}` }, signal: test.signal });
  const provider = 'Microsoft Graph';
  if (answer.kind !== 'answer') return [transportItem(provider, answer, test.elapsed())];
  if (answer.status === 200) return [];
  if (answer.status === 403) return [missingGraphPermission(graph, test.configuration.client_id, test.configuration.tenant_id)];
  if (answer.status === 401) return [tokenNotAccepted(provider, test.configuration.client_id)];
  return [answerItem(provider, answer)];
}

async function probeSubscription(test: AzureTest, accessToken: string, subscriptionId: string): Promise<RemediationItem[]> {
  const url = `${test.endpoints.arm}/subscriptions/${subscriptionId}/providers/Microsoft.Authorization/roleAssignments?api-version=${ARM_API_VERSION}`;
  const answer = await callProvider(url, { headers: { authorization: `Bearer ${accessToken}` }, signal: test.signal });
  const provider = 'Azure Resource Manager';
  if (answer.kind !== 'answer') return [transportItem(provider, answer, test.elapsed())];
  // An empty listing is a role without roleAssignments/read, never a subscription without assignments.
  if (answer.status === 200) return collection(answer.body).length === 0 && !stringField(answer.body, 'nextLink') ? [missingReaderRole(subscriptionId, test.configuration.client_id, 'empty')] : [];
  const code = stringField(answer.body, 'error', 'code');
  if (answer.status === 403) return [missingReaderRole(subscriptionId, test.configuration.client_id)];
  // A subscription of another tenant answers 401 InvalidAuthenticationTokenTenant, not 404.
  if (answer.status === 404 || code === 'InvalidAuthenticationTokenTenant') return [unknownSubscription(subscriptionId, test.configuration.tenant_id)];
  if (answer.status === 401) return [tokenNotAccepted(provider, test.configuration.client_id)];
  return [answerItem(provider, answer)];
}

async function mapWithConcurrency<T, R>(items: readonly T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export const azureConnector: Connector<AzureConfiguration, AzureScope> = {
  test: ({ configuration, scope }, context) => neverThrows('Microsoft Entra ID', () => testCloudProviderB(configuration, scope, context)),
  discover: azureDiscovery,
};
