/**
 * Cloud provider B (a Microsoft Entra ID tenant with Azure subscriptions): schemas, the
 * permissions discovery needs, and the test operation as a real client: OAuth 2.0 client
 * credentials at the tenant's token endpoint, then one Microsoft Graph read per application
 * permission and one Azure Resource Manager read per subscription in scope, so each refusal
 * names the exact permission or role assignment that is missing. Discovery is
 * discovery.ts; the permissions both need are in permissions.ts.
 */
import * as z from 'zod/mini';
import { azureArmPermissions, azureGraphPermissions } from './permissions';
import type { DiscoveryTrack } from '../discovery';

export const AzureConfigurationSchema = z.strictObject({
  tenant_id: z.guid({ message: 'must be a GUID' }).check(z.meta({ description: 'Directory (tenant) ID of the Microsoft Entra ID tenant.' })),
  client_id: z.guid({ message: 'must be a GUID' }).check(z.meta({ description: 'Application (client) ID of the app registration discovery signs in as.' })),
  client_secret: z
    .string()
    .check(z.minLength(1), z.maxLength(256), z.meta({ description: 'Value of a client secret of that app registration.', writeOnly: true })),
});

export const AzureScopeSchema = z.strictObject({
  subscription_ids: z
    .array(z.guid({ message: 'must be a subscription id (GUID)' }))
    .check(
      z.minLength(1),
      z.maxLength(100),
      z.refine((ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length, { message: 'must not repeat a subscription id' }),
      z.meta({ description: 'Azure subscriptions to discover.', uniqueItems: true }),
    ),
});

export type AzureConfiguration = z.infer<typeof AzureConfigurationSchema>;
export type AzureScope = z.infer<typeof AzureScopeSchema>;

export const azureExamples: { configuration: AzureConfiguration; scope: AzureScope } = {
  configuration: {
    tenant_id: '6f1c2b7e-3d4a-4c5b-9e8f-0a1b2c3d4e5f',
    client_id: '2b9e6c1d-8f7a-4e3b-a5c4-d3e2f1a0b9c8',
    client_secret: 'Xq8Q~EXAMPLEsecretVALUEnotREAL.0123456789',
  },
  scope: { subscription_ids: ['0d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a'] },
};

export { azureArmPermissions, azureGraphPermissions };

/** The Microsoft Graph track (users, groups, service principals); each subscription is a track of its own. */
export const GRAPH_TRACK = 'graph';

/** What a discovery run of this scope reads, track by track (its progress starts from these; the connector reads them). */
export const azureTracks = (scope: AzureScope): DiscoveryTrack[] => [{ name: GRAPH_TRACK }, ...scope.subscription_ids.map((id) => ({ name: `subscription:${id}` }))];
