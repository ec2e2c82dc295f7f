/**
 * Where the Azure connector sends its calls: Microsoft's public cloud by default, overridable per
 * surface through `context.endpoints` (deployment configuration and tests, never a tenant).
 */

export interface AzureEndpoints {
  login: string;
  graph: string;
  arm: string;
}

export const DEFAULT_AZURE_ENDPOINTS: AzureEndpoints = { login: 'https://login.microsoftonline.com', graph: 'https://graph.microsoft.com', arm: 'https://management.azure.com' };

/** Token audiences: fixed resource identifiers, not addresses, so endpoint overrides leave them alone. */
export const GRAPH_SCOPE = 'https://graph.microsoft.com/.default';
export const ARM_SCOPE = 'https://management.azure.com/.default';

export function azureEndpoints(overrides: Record<string, string> | undefined): AzureEndpoints {
  const endpoints = { ...DEFAULT_AZURE_ENDPOINTS };
  for (const name of ['login', 'graph', 'arm'] as const) {
    const value = overrides?.[name];
    if (value) endpoints[name] = value.replace(/\/+$/, '');
  }
  return endpoints;
}
