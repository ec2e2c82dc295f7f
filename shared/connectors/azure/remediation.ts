/**
 * Remediation items of the Azure connector: the exact Microsoft Graph application permission
 * (with its app role id, for the CLI) or Azure RBAC role assignment, granted to which app.
 * The client secret never appears; the client id and tenant id must, since the fix names them.
 */
import type { RemediationItem } from '../connector';

export const MICROSOFT_GRAPH_APP_ID = '00000003-0000-0000-c000-000000000000';
/** Built-in Azure RBAC role "Reader". */
export const READER_ROLE_ID = 'acdd72a7-3385-48ef-bd42-f606fba81ae7';

export interface GraphPermission {
  /** The application permission (app role) of Microsoft Graph. */
  permission: string;
  /** Its app role id, which `az ad app permission add` takes. */
  appRoleId: string;
  /** A read that needs it (and nothing broader), relative to the Graph base URL. */
  probe: string;
  /** What discovery misses without it. */
  misses: string;
}

export function missingGraphPermission(graph: GraphPermission, clientId: string, tenantId: string): RemediationItem {
  return {
    category: 'permissions',
    message: `The app ${clientId} lacks the Microsoft Graph application permission ${graph.permission}.`,
    action:
      `Grant the Microsoft Graph application permission ${graph.permission} to the app registration ${clientId} and grant admin consent in tenant ${tenantId}: ` +
      `az ad app permission add --id ${clientId} --api ${MICROSOFT_GRAPH_APP_ID} --api-permissions ${graph.appRoleId}=Role && az ad app permission admin-consent --id ${clientId} ` +
      `(portal: Microsoft Entra ID > App registrations > ${clientId} > API permissions > Add a permission > Microsoft Graph > Application permissions > ${graph.permission}, then Grant admin consent). ` +
      `Without it discovery would miss ${graph.misses}.`,
  };
}

/**
 * `refused`: ARM answered 403 AuthorizationFailed. `empty`: ARM answered the subscription's role
 * assignments with 200 and none, which is never the truth for a principal that may read them: the
 * listing holds the assignments at, above and below the subscription, so it would hold the one
 * that lets this app read it (a role without Microsoft.Authorization/roleAssignments/read gets
 * an empty list, as azure-sdk-for-python#22873 reports).
 */
export function missingReaderRole(subscriptionId: string, clientId: string, answer: 'refused' | 'empty' = 'refused'): RemediationItem {
  const scope = `/subscriptions/${subscriptionId}`;
  const why = answer === 'refused' ? 'Microsoft.Authorization/roleAssignments/read was refused' : 'Azure Resource Manager listed its role assignments with HTTP 200 and none, as it answers a role without Microsoft.Authorization/roleAssignments/read';
  return {
    category: 'permissions',
    message: `The app ${clientId} has no Reader role on subscription ${subscriptionId} (${why}).`,
    action:
      `Assign the built-in Azure role Reader (${READER_ROLE_ID}) to the service principal of app ${clientId} at scope ${scope}: ` +
      `az role assignment create --assignee ${clientId} --role Reader --scope ${scope}. ` +
      `Without it discovery would miss the subscription's role assignments, role definitions and resources.`,
  };
}

export function unknownSubscription(subscriptionId: string, tenantId: string): RemediationItem {
  return {
    category: 'configuration',
    message: `Subscription ${subscriptionId} was not found in tenant ${tenantId}.`,
    action: `Check scope.subscription_ids: list the subscriptions of the tenant with az account list --query "[?tenantId=='${tenantId}'].id" and remove or correct ${subscriptionId}.`,
  };
}

/** Token endpoint refusals, by OAuth error and AADSTS code (the description's leading code). */
export function tokenRefused(error: string | undefined, aadsts: string | undefined, clientId: string, tenantId: string): RemediationItem {
  if (aadsts === 'AADSTS90002' || aadsts === 'AADSTS900023') {
    return {
      category: 'configuration',
      message: `Microsoft Entra ID does not know the tenant ${tenantId} (${aadsts}).`,
      action: 'Set tenant_id to the Directory (tenant) ID shown on Microsoft Entra ID > Overview.',
    };
  }
  if (aadsts === 'AADSTS700016' || error === 'unauthorized_client') {
    return {
      category: 'credentials',
      message: `No application with client id ${clientId} exists in tenant ${tenantId}${aadsts ? ` (${aadsts})` : ''}.`,
      action: `Set client_id to the Application (client) ID of an app registration of tenant ${tenantId} (Microsoft Entra ID > App registrations), or, for a multi-tenant app, have an administrator of ${tenantId} consent to it.`,
    };
  }
  if (error === 'invalid_client') {
    return {
      category: 'credentials',
      message: `Microsoft Entra ID rejected the client secret of app ${clientId}${aadsts ? ` (${aadsts})` : ''}: it is wrong or expired.`,
      action: `Create a new client secret (Microsoft Entra ID > App registrations > ${clientId} > Certificates & secrets > New client secret) and update the connection's configuration with its Value (not its Secret ID).`,
    };
  }
  return {
    category: 'credentials',
    message: `Microsoft Entra ID refused a token for app ${clientId} (${aadsts ?? error ?? 'no error code'}).`,
    action: `Check tenant_id, client_id and client_secret against the app registration ${clientId}, then run the test again.`,
  };
}

export function tokenNotAccepted(api: string, clientId: string): RemediationItem {
  return {
    category: 'credentials',
    message: `${api} did not accept the token issued to app ${clientId} (HTTP 401).`,
    action: `Check that the app registration ${clientId} is enabled and lives in the configured tenant, then run the test again.`,
  };
}
