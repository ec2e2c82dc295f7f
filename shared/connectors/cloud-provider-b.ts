/**
 * Cloud provider B (a Microsoft Entra ID tenant with Azure subscriptions): schemas, the
 * permissions discovery needs, and the test operation as a real client: OAuth 2.0 client
 * credentials at the tenant's token endpoint, then one Microsoft Graph read per application
 * permission and one Azure Resource Manager read per subscription in scope, so each refusal
 * names the exact permission or role assignment that is missing. Discovery is
 * cloud-provider-b-discovery.ts; the permissions both need are in azure-permissions.ts.
 */
import * as z from 'zod/mini';
import type { Connector, ConnectorContext, ConnectorTestResult, RemediationItem } from './connector';
import { missingGraphPermission, missingReaderRole, tokenNotAccepted, unknownSubscription, type GraphPermission } from './azure-remediation';
import { cloudProviderBArmPermissions, cloudProviderBGraphPermissions } from './azure-permissions';
import { ARM_SCOPE, GRAPH_SCOPE, azureEndpoints, type AzureEndpoints } from './azure-endpoints';
import { answerItem, requestToken, transportItem, type Token } from './azure-token';
import { cloudProviderBDiscovery } from './cloud-provider-b-discovery';
import { neverThrows, resultOf, startTimer } from './outcome';
import { callProvider, stringField } from './provider-http';

export const CloudProviderBConfigurationSchema = z.strictObject({
  tenant_id: z.guid({ message: 'must be a GUID' }).check(z.meta({ description: 'Directory (tenant) ID of the Microsoft Entra ID tenant.' })),
  client_id: z.guid({ message: 'must be a GUID' }).check(z.meta({ description: 'Application (client) ID of the app registration discovery signs in as.' })),
  client_secret: z
    .string()
    .check(z.minLength(1), z.maxLength(256), z.meta({ description: 'Value of a client secret of that app registration.', writeOnly: true })),
});

export const CloudProviderBScopeSchema = z.strictObject({
  subscription_ids: z
    .array(z.guid({ message: 'must be a subscription id (GUID)' }))
    .check(
      z.minLength(1),
      z.maxLength(100),
      z.refine((ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length, { message: 'must not repeat a subscription id' }),
      z.meta({ description: 'Azure subscriptions to discover.', uniqueItems: true }),
    ),
});

export type CloudProviderBConfiguration = z.infer<typeof CloudProviderBConfigurationSchema>;
export type CloudProviderBScope = z.infer<typeof CloudProviderBScopeSchema>;

export const cloudProviderBExamples: { configuration: CloudProviderBConfiguration; scope: CloudProviderBScope } = {
  configuration: {
    tenant_id: '6f1c2b7e-3d4a-4c5b-9e8f-0a1b2c3d4e5f',
    client_id: '2b9e6c1d-8f7a-4e3b-a5c4-d3e2f1a0b9c8',
    client_secret: 'Xq8Q~EXAMPLEsecretVALUEnotREAL.0123456789',
  },
  scope: { subscription_ids: ['0d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a'] },
};

export { cloudProviderBArmPermissions, cloudProviderBGraphPermissions };

const ARM_API_VERSION = '2022-04-01';
/** Up to 100 subscriptions: a few reads at a time stay polite to ARM's per-principal limits. */
const ARM_CONCURRENCY = 8;

interface AzureTest {
  configuration: CloudProviderBConfiguration;
  signal: AbortSignal;
  endpoints: AzureEndpoints;
  elapsed: () => number;
}

async function testCloudProviderB(configuration: CloudProviderBConfiguration, scope: CloudProviderBScope, context: ConnectorContext): Promise<ConnectorTestResult> {
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
    Promise.all(cloudProviderBGraphPermissions.map((graph) => probeGraph(test, graphToken.accessToken, graph))),
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
  if (answer.status === 200) return [];
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

export const cloudProviderBConnector: Connector<CloudProviderBConfiguration, CloudProviderBScope> = {
  test: ({ configuration, scope }, context) => neverThrows('Microsoft Entra ID', () => testCloudProviderB(configuration, scope, context)),
  discover: cloudProviderBDiscovery,
};
