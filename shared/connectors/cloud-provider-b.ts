/**
 * Cloud provider B (a Microsoft Entra ID tenant with Azure subscriptions): schemas, the
 * permissions discovery needs, and the test operation as a real client: OAuth 2.0 client
 * credentials at the tenant's token endpoint, then one Microsoft Graph read per application
 * permission and one Azure Resource Manager read per subscription in scope, so each refusal
 * names the exact permission or role assignment that is missing.
 */
import * as z from 'zod';
import type { Connector, ConnectorContext, ConnectorTestResult, RemediationItem } from './connector';
import {
  missingGraphPermission,
  missingReaderRole,
  tokenNotAccepted,
  tokenRefused,
  unknownSubscription,
  type GraphPermission,
} from './azure-remediation';
import { neverThrows, resultOf, startTimer, throttled, timedOut, unexpectedAnswer, unreachable } from './outcome';
import { callProvider, stringField, type ProviderAnswer } from './provider-http';

export const CloudProviderBConfigurationSchema = z.strictObject({
  tenant_id: z.guid({ message: 'must be a GUID' }).meta({ description: 'Directory (tenant) ID of the Microsoft Entra ID tenant.' }),
  client_id: z.guid({ message: 'must be a GUID' }).meta({ description: 'Application (client) ID of the app registration discovery signs in as.' }),
  client_secret: z
    .string()
    .min(1)
    .max(256)
    .meta({ description: 'Value of a client secret of that app registration.', writeOnly: true }),
});

export const CloudProviderBScopeSchema = z.strictObject({
  subscription_ids: z
    .array(z.guid({ message: 'must be a subscription id (GUID)' }))
    .min(1)
    .max(100)
    .refine((ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length, { message: 'must not repeat a subscription id' })
    .meta({ description: 'Azure subscriptions to discover.', uniqueItems: true }),
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

export const cloudProviderBGraphPermissions: readonly GraphPermission[] = [
  {
    permission: 'User.Read.All',
    appRoleId: 'df021288-bdef-4463-88db-98f22de89214',
    probe: '/v1.0/users?$top=1&$select=id',
    misses: 'users and their accounts (Principal, Account)',
  },
  {
    permission: 'GroupMember.Read.All',
    appRoleId: '98830695-27a2-44f7-8c18-0c3ebc9698f6',
    probe: '/v1.0/groups?$top=1&$select=id',
    misses: 'groups and their memberships (Entitlement, account_assigned_entitlement)',
  },
  {
    permission: 'Application.Read.All',
    appRoleId: '9a5d68dd-52b0-4cc2-bd40-abcf44ac3a30',
    probe: '/v1.0/servicePrincipals?$top=1&$select=id',
    misses: 'service principals and the app roles assigned to them',
  },
  {
    permission: 'RoleManagement.Read.Directory',
    appRoleId: '483bed4a-2ad3-4361-a73b-c83ccdbdc53c',
    probe: '/v1.0/roleManagement/directory/roleAssignments?$top=1',
    misses: 'Microsoft Entra directory role assignments (Global Administrator and the other admin roles)',
  },
];

/** The ARM actions the built-in Reader role grants and discovery uses, for the catalog. */
export const cloudProviderBArmPermissions: readonly string[] = [
  'Microsoft.Authorization/roleAssignments/read',
  'Microsoft.Authorization/roleDefinitions/read',
  'Microsoft.Resources/subscriptions/resourceGroups/read',
];

const DEFAULT_ENDPOINTS = { login: 'https://login.microsoftonline.com', graph: 'https://graph.microsoft.com', arm: 'https://management.azure.com' };
/** Token audiences: fixed resource identifiers, not addresses, so endpoint overrides leave them alone. */
const GRAPH_SCOPE = 'https://graph.microsoft.com/.default';
const ARM_SCOPE = 'https://management.azure.com/.default';
const ARM_API_VERSION = '2022-04-01';
/** Up to 100 subscriptions: a few reads at a time stay polite to ARM's per-principal limits. */
const ARM_CONCURRENCY = 8;

interface AzureTest {
  configuration: CloudProviderBConfiguration;
  signal: AbortSignal;
  endpoints: typeof DEFAULT_ENDPOINTS;
  elapsed: () => number;
}

type Token = { ok: true; accessToken: string } | { ok: false; item: RemediationItem };

async function testCloudProviderB(configuration: CloudProviderBConfiguration, scope: CloudProviderBScope, context: ConnectorContext): Promise<ConnectorTestResult> {
  const test: AzureTest = {
    configuration,
    signal: context.signal,
    endpoints: { ...DEFAULT_ENDPOINTS, ...pick(context.endpoints, 'login', 'graph', 'arm') },
    elapsed: startTimer(),
  };
  const graphToken = await requestToken(test, GRAPH_SCOPE);
  if (!graphToken.ok) return resultOf([graphToken.item]);
  const armToken = await requestToken(test, ARM_SCOPE);
  if (!armToken.ok) return resultOf([armToken.item]);

  const [graphItems, armItems] = await Promise.all([
    Promise.all(cloudProviderBGraphPermissions.map((graph) => probeGraph(test, graphToken.accessToken, graph))),
    mapWithConcurrency(scope.subscription_ids, ARM_CONCURRENCY, (subscriptionId) => probeSubscription(test, armToken.accessToken, subscriptionId)),
  ]);
  return resultOf([...graphItems.flat(), ...armItems.flat()]);
}

/** OAuth 2.0 client credentials: the secret travels in the form body, never in a URL. */
async function requestToken(test: AzureTest, scope: string): Promise<Token> {
  const { tenant_id: tenantId, client_id: clientId, client_secret: clientSecret } = test.configuration;
  const answer = await callProvider(`${test.endpoints.login}/${tenantId}/oauth2/v2.0/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, scope }).toString(),
    signal: test.signal,
  });
  const provider = 'The Microsoft Entra ID token endpoint';
  if (answer.kind !== 'answer') return { ok: false, item: transportItem(provider, answer, test.elapsed()) };
  const accessToken = stringField(answer.body, 'access_token');
  if (answer.status === 200 && accessToken) return { ok: true, accessToken };
  if (answer.status === 400 || answer.status === 401) {
    const description = stringField(answer.body, 'error_description') ?? '';
    const aadsts = /^(AADSTS\d+)/.exec(description)?.[1];
    return { ok: false, item: tokenRefused(stringField(answer.body, 'error'), aadsts, clientId, tenantId) };
  }
  return { ok: false, item: answerItem(provider, answer) };
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

function transportItem(provider: string, answer: Exclude<ProviderAnswer, { kind: 'answer' }>, elapsedMs: number): RemediationItem {
  return answer.kind === 'timeout' ? timedOut(provider, elapsedMs) : unreachable(provider, answer.reason);
}

/** Throttling or an answer no branch expected. */
function answerItem(provider: string, answer: Extract<ProviderAnswer, { kind: 'answer' }>): RemediationItem {
  if (answer.status === 429) {
    const retryAfter = answer.headers.get('retry-after');
    return throttled(provider, retryAfter && /^\d+$/.test(retryAfter) ? `it asks to retry after ${retryAfter} s` : 'retry in a minute');
  }
  const code = stringField(answer.body, 'error', 'code') ?? stringField(answer.body, 'error');
  return unexpectedAnswer(provider, `HTTP ${answer.status}${code ? ` ${code}` : ''}`);
}

function pick(endpoints: Record<string, string> | undefined, ...names: (keyof typeof DEFAULT_ENDPOINTS)[]): Partial<typeof DEFAULT_ENDPOINTS> {
  const picked: Partial<typeof DEFAULT_ENDPOINTS> = {};
  for (const name of names) {
    const value = endpoints?.[name];
    if (value) picked[name] = value.replace(/\/+$/, '');
  }
  return picked;
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
  // Placeholder until this connector's discovery lands: every run of it fails, saying so.
  discover: {
    tracks: () => [{ name: 'all' }],
    readPage: () =>
      Promise.resolve({
        kind: 'failed',
        remediation: [{ category: 'configuration', message: 'Microsoft Entra ID discovery is not available in this version', action: 'Use the test operation until discovery ships' }],
      }),
  },
};
