/**
 * The Azure connector (cloud provider B) against a local Entra ID token endpoint, Microsoft
 * Graph and Azure Resource Manager: success, the exact Graph permission or Reader assignment
 * that is missing, refused credentials, throttling and timeouts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findIntegration } from '../../shared/connectors/catalog';
import type { AzureConfiguration, AzureScope } from '../../shared/connectors/azure/integration';
import type { ConnectorTestResult } from '../../shared/connectors/connector';
import { azureApp, azureSubscriptions, startFakeAzure, type FakeAzure } from '../../infra/local/stand-ins/azure';
import { connectorOf } from '../../shared/connectors/connector-registry';

const integration = findIntegration('int_azure_entra_discovery')!;
const configuration: AzureConfiguration = { tenant_id: azureApp.tenantId, client_id: azureApp.clientId, client_secret: azureApp.clientSecret };
const scope: AzureScope = { subscription_ids: azureSubscriptions };
const [subscriptionA, subscriptionB] = azureSubscriptions as [string, string];

let azure: FakeAzure;
beforeAll(async () => {
  azure = await startFakeAzure();
});
afterAll(() => azure.close());
beforeEach(() => {
  azure.calls.length = 0;
  azure.state.graphPermissions = new Set(['User.Read.All', 'GroupMember.Read.All', 'Application.Read.All', 'RoleManagement.Read.Directory']);
  azure.state.readerOn = new Set(azureSubscriptions);
  azure.state.throttle = undefined;
  azure.state.hang = undefined;
});

async function runTest(config: AzureConfiguration = configuration, testScope: AzureScope = scope, timeoutMs = 5_000): Promise<ConnectorTestResult> {
  expect(integration.configurationSchema.safeParse(config).success).toBe(true);
  expect(integration.scopeSchema.safeParse(testScope).success).toBe(true);
  const endpoints = { login: azure.url, graph: azure.url, arm: azure.url };
  const result = await connectorOf(integration).test({ configuration: config, scope: testScope }, { signal: AbortSignal.timeout(timeoutMs), endpoints });
  expect(JSON.stringify(result)).not.toContain(config.client_secret);
  return result;
}

describe('cloud provider B (Azure) connector test', () => {
  it('succeeds: client credentials for Graph and ARM, one Graph read per permission, one ARM read per subscription', async () => {
    expect(await runTest()).toEqual({ status: 'success', remediation: [] });

    const tokenCalls = azure.calls.filter((c) => c.surface === 'token');
    expect(tokenCalls.map((c) => [c.method, c.path, c.form?.get('scope')])).toEqual([
      ['POST', `/${azureApp.tenantId}/oauth2/v2.0/token`, 'https://graph.microsoft.com/.default'],
      ['POST', `/${azureApp.tenantId}/oauth2/v2.0/token`, 'https://management.azure.com/.default'],
    ]);
    for (const call of tokenCalls) {
      expect(Object.fromEntries(call.form!)).toMatchObject({ grant_type: 'client_credentials', client_id: azureApp.clientId, client_secret: azureApp.clientSecret });
      expect([...call.query.keys()]).toEqual([]); // the secret travels in the body only
    }

    const graphCalls = azure.calls.filter((c) => c.surface === 'graph');
    expect(graphCalls.map((c) => c.path).sort()).toEqual(
      ['/v1.0/groups', '/v1.0/roleManagement/directory/roleAssignments', '/v1.0/servicePrincipals', '/v1.0/users'],
    );
    expect(graphCalls.every((c) => c.authorization?.startsWith('Bearer '))).toBe(true);

    const armCalls = azure.calls.filter((c) => c.surface === 'arm');
    expect(armCalls.map((c) => [c.path, c.query.get('api-version')]).sort()).toEqual(
      azureSubscriptions.map((id) => [`/subscriptions/${id}/providers/Microsoft.Authorization/roleAssignments`, '2022-04-01']).sort(),
    );
  });

  it('names the missing Graph application permission, its app role id and the app to grant it to', async () => {
    azure.state.graphPermissions.delete('RoleManagement.Read.Directory');
    expect(await runTest()).toEqual({
      status: 'failure',
      remediation: [
        {
          category: 'permissions',
          message: `The app ${azureApp.clientId} lacks the Microsoft Graph application permission RoleManagement.Read.Directory.`,
          action:
            `Grant the Microsoft Graph application permission RoleManagement.Read.Directory to the app registration ${azureApp.clientId} and grant admin consent in tenant ${azureApp.tenantId}: ` +
            `az ad app permission add --id ${azureApp.clientId} --api 00000003-0000-0000-c000-000000000000 --api-permissions 483bed4a-2ad3-4361-a73b-c83ccdbdc53c=Role && az ad app permission admin-consent --id ${azureApp.clientId} ` +
            `(portal: Microsoft Entra ID > App registrations > ${azureApp.clientId} > API permissions > Add a permission > Microsoft Graph > Application permissions > RoleManagement.Read.Directory, then Grant admin consent). ` +
            'Without it discovery would miss Microsoft Entra directory role assignments (Global Administrator and the other admin roles).',
        },
      ],
    });
  });

  it('lists each missing permission once, Graph and ARM together', async () => {
    azure.state.graphPermissions = new Set(['User.Read.All']);
    azure.state.readerOn = new Set([subscriptionA]);
    const result = await runTest();
    expect(result.remediation.map((r) => r.message)).toEqual([
      `The app ${azureApp.clientId} lacks the Microsoft Graph application permission GroupMember.Read.All.`,
      `The app ${azureApp.clientId} lacks the Microsoft Graph application permission Application.Read.All.`,
      `The app ${azureApp.clientId} lacks the Microsoft Graph application permission RoleManagement.Read.Directory.`,
      `The app ${azureApp.clientId} has no Reader role on subscription ${subscriptionB} (Microsoft.Authorization/roleAssignments/read was refused).`,
    ]);
  });

  it('names the Reader assignment missing at the subscription scope', async () => {
    azure.state.readerOn = new Set([subscriptionA]);
    expect((await runTest()).remediation).toEqual([
      {
        category: 'permissions',
        message: `The app ${azureApp.clientId} has no Reader role on subscription ${subscriptionB} (Microsoft.Authorization/roleAssignments/read was refused).`,
        action:
          `Assign the built-in Azure role Reader (acdd72a7-3385-48ef-bd42-f606fba81ae7) to the service principal of app ${azureApp.clientId} at scope /subscriptions/${subscriptionB}: ` +
          `az role assignment create --assignee ${azureApp.clientId} --role Reader --scope /subscriptions/${subscriptionB}. ` +
          "Without it discovery would miss the subscription's role assignments, role definitions and resources.",
      },
    ]);
  });

  it('reports a subscription that is not in the tenant as configuration', async () => {
    const stranger = '99999999-8888-4777-8666-555555555555';
    expect((await runTest(configuration, { subscription_ids: [subscriptionA, stranger] })).remediation).toEqual([
      expect.objectContaining({ category: 'configuration', message: `Subscription ${stranger} was not found in tenant ${azureApp.tenantId}.` }),
    ]);
  });

  it('reports a wrong secret, an unknown app and an unknown tenant, and stops before any read', async () => {
    const wrongSecret = await runTest({ ...configuration, client_secret: 'not-the-secret' });
    expect(wrongSecret).toEqual({
      status: 'failure',
      remediation: [
        {
          category: 'credentials',
          message: `Microsoft Entra ID rejected the client secret of app ${azureApp.clientId} (AADSTS7000215): it is wrong or expired.`,
          action: `Create a new client secret (Microsoft Entra ID > App registrations > ${azureApp.clientId} > Certificates & secrets > New client secret) and update the connection's configuration with its Value (not its Secret ID).`,
        },
      ],
    });
    expect(azure.calls.filter((c) => c.surface !== 'token')).toEqual([]);

    const otherApp = '0a0a0a0a-1b1b-4c2c-8d3d-4e4e4e4e4e4e';
    expect((await runTest({ ...configuration, client_id: otherApp })).remediation).toEqual([
      expect.objectContaining({ category: 'credentials', message: `No application with client id ${otherApp} exists in tenant ${azureApp.tenantId} (AADSTS700016).` }),
    ]);

    const otherTenant = '5e5e5e5e-6f6f-4a7a-8b8b-9c9c9c9c9c9c';
    expect((await runTest({ ...configuration, tenant_id: otherTenant })).remediation).toEqual([
      expect.objectContaining({ category: 'configuration', message: `Microsoft Entra ID does not know the tenant ${otherTenant} (AADSTS90002).` }),
    ]);
  });

  it('reports throttling with the Retry-After the provider gave', async () => {
    azure.state.throttle = 'graph';
    expect((await runTest()).remediation).toEqual([
      expect.objectContaining({ category: 'throttling', message: 'Microsoft Graph throttled the test (too many requests); it asks to retry after 7 s.' }),
    ]);
  });

  it('stops at the time limit and says which endpoint did not answer', async () => {
    azure.state.hang = 'arm';
    expect(await runTest(configuration, scope, 300)).toEqual({
      status: 'failure',
      remediation: [expect.objectContaining({ category: 'connectivity', message: expect.stringMatching(/^Azure Resource Manager did not answer within \d+(\.\d)? s\.$/) })],
    });

    azure.state.hang = 'token';
    expect((await runTest(configuration, scope, 300)).remediation).toEqual([
      expect.objectContaining({ category: 'connectivity', message: expect.stringMatching(/^The Microsoft Entra ID token endpoint did not answer within \d+(\.\d)? s\.$/) }),
    ]);
  });
});
