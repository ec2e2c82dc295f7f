/**
 * The integrations catalog, seeded from code and versioned with the connectors: one discovery
 * integration per provider system. A connector change that alters what it reads or needs bumps
 * its `version` and `updated_at` here, in the same commit.
 */
import type { z } from 'zod/mini';
import type { IntegrationViewSchema } from '../connections/integration-schemas';
import type { IntegrationDefinition } from './connector';
import {
  AwsConfigurationSchema,
  AwsScopeSchema,
  awsExamples,
  awsPermissions,
  awsTracks,
} from './aws/integration';
import {
  AzureConfigurationSchema,
  AzureScopeSchema,
  azureArmPermissions,
  azureExamples,
  azureGraphPermissions,
  azureTracks,
} from './azure/integration';
import {
  OktaConfigurationSchema,
  OktaScopeSchema,
  oktaExamples,
  oktaApiScopes,
  oktaTracks,
} from './okta/integration';
import { publishedJsonSchema, type JsonSchema } from './published-schema';

/** Release of the 1.0.0 connectors. */
const RELEASED_1_0_0 = '2026-11-23T00:00:00Z';
/** Discovery of the two cloud connectors (1.1.0). */
const CLOUD_DISCOVERY_1_1_0 = '2026-11-23T22:00:00Z';

/** Type-checks an entry against its own schemas, then widens it for the catalog list. */
function defineIntegration<C extends z.ZodMiniType, S extends z.ZodMiniType>(definition: IntegrationDefinition<C, S>): IntegrationDefinition {
  return definition;
}

export const integrations: readonly IntegrationDefinition[] = [
  defineIntegration({
    integration_id: 'int_aws_iam_discovery',
    name: 'AWS IAM discovery',
    connector_type: 'discovery',
    provider_system: 'cloud_provider_a',
    connector_id: 'aws-iam',
    version: '1.1.0',
    required_permissions: awsPermissions.map((p) => p.action),
    emits_entities: ['Principal', 'Account', 'Entitlement', 'Resource', 'CloudAccountBoundary'],
    emits_relationships: ['principal_represents_account', 'account_assigned_entitlement', 'entitlement_grants_resource'],
    limits_blind_spots: [
      'Reads identity-based IAM policies only: access granted by resource-based policies (S3 bucket, KMS key, SQS queue policies) is not seen.',
      'Service control policies and permissions boundaries are reported by the test but not applied to discovered entitlements.',
      'Policy conditions are not evaluated and Deny statements do not subtract: an entitlement grants every resource its Allow statements name.',
      'IAM Identity Center users, groups and permission sets are not discovered.',
      'Each account in scope is read through the role of the same name in that account; the test checks only the account of the credentials (or of role_arn).',
      'Access keys, their last use and MFA devices of IAM users are not read.',
      'A Principal is an IAM user, or all users tagged with the same email; roles have none, who may assume them is in their trusted_principals.',
    ],
    supports_test: true,
    configurationSchema: AwsConfigurationSchema,
    configurationSchemaVersion: 1,
    scopeSchema: AwsScopeSchema,
    discoveryTracks: awsTracks,
    examples: awsExamples,
    created_at: RELEASED_1_0_0,
    updated_at: CLOUD_DISCOVERY_1_1_0,
  }),
  defineIntegration({
    integration_id: 'int_azure_entra_discovery',
    name: 'Microsoft Entra ID and Azure RBAC discovery',
    connector_type: 'discovery',
    provider_system: 'cloud_provider_b',
    connector_id: 'azure-entra',
    version: '1.1.0',
    required_permissions: [...azureGraphPermissions.map((p) => p.permission), ...azureArmPermissions],
    emits_entities: ['Principal', 'Account', 'Entitlement', 'Resource', 'CloudAccountBoundary'],
    emits_relationships: ['principal_represents_account', 'account_assigned_entitlement', 'entitlement_grants_resource'],
    limits_blind_spots: [
      'Privileged Identity Management eligible (not yet activated) role assignments are not discovered.',
      'Role assignments made at a management group are seen only as inherited by the subscriptions in scope.',
      'Data-plane access (Key Vault access policies, storage account keys and SAS tokens) is not discovered.',
      'Guest users are discovered in this tenant; their home tenant is not read.',
      'Group memberships are transitive (effective): nested groups are followed, but which group a membership comes through is not recorded.',
      "A group's Azure role is recorded as the group reaching the scope; the role it holds there is among the scope's role entitlements, not on that link.",
      'Application role assignments, app owners and credentials of service principals are not discovered.',
      'Directory roles scoped to an administrative unit are named by role id and scope.',
    ],
    supports_test: true,
    configurationSchema: AzureConfigurationSchema,
    configurationSchemaVersion: 1,
    scopeSchema: AzureScopeSchema,
    discoveryTracks: azureTracks,
    examples: azureExamples,
    created_at: RELEASED_1_0_0,
    updated_at: CLOUD_DISCOVERY_1_1_0,
  }),
  defineIntegration({
    integration_id: 'int_okta_discovery',
    name: 'Okta discovery',
    connector_type: 'discovery',
    provider_system: 'identity_provider_a',
    connector_id: 'okta',
    version: '1.0.0',
    required_permissions: oktaApiScopes.map((s) => s.scope),
    emits_entities: ['Principal', 'Account', 'Entitlement', 'Resource'],
    emits_relationships: ['principal_represents_account', 'account_assigned_entitlement', 'entitlement_grants_resource'],
    limits_blind_spots: [
      'Entitlements inside applications (their own roles) are seen only where Okta provisions them.',
      'Group rules are seen through the memberships they produce, not as rules.',
      'Custom admin roles are listed by name; their permissions are not expanded per resource set.',
      "The API token acts as the admin who created it and stops working when that admin is deactivated.",
      "Discovery shares the org's management API rate limits with other integrations.",
    ],
    supports_test: true,
    configurationSchema: OktaConfigurationSchema,
    configurationSchemaVersion: 1,
    scopeSchema: OktaScopeSchema,
    discoveryTracks: oktaTracks,
    examples: oktaExamples,
    created_at: RELEASED_1_0_0,
    updated_at: RELEASED_1_0_0,
  }),
];

export function findIntegration(integrationId: string): IntegrationDefinition | undefined {
  return integrations.find((i) => i.integration_id === integrationId);
}

/**
 * The catalog a caller may see. The route already requires `integrations:read`; this is where
 * licensing narrows it, once a tenant carries entitlements (v0 has none: `undefined` = all).
 */
export function visibleIntegrations(access: { permissions: readonly string[]; licensedIntegrationIds?: readonly string[] }): IntegrationDefinition[] {
  if (!access.permissions.includes('integrations:read')) return [];
  const licensed = access.licensedIntegrationIds;
  return integrations.filter((i) => licensed === undefined || licensed.includes(i.integration_id));
}


export type IntegrationView = z.infer<typeof IntegrationViewSchema> & { configuration_schema: JsonSchema; scope_schema: JsonSchema };

const views = new WeakMap<IntegrationDefinition, IntegrationView>();

/**
 * The API shape of a catalog entry. The JSON Schemas are generated once per entry (the catalog
 * only changes with a deploy); each call answers its own copy, so a caller may modify it.
 */
export function integrationView(definition: IntegrationDefinition): IntegrationView {
  const cached = views.get(definition);
  if (cached) return structuredClone(cached);
  const view: IntegrationView = {
    integration_id: definition.integration_id,
    name: definition.name,
    connector_type: definition.connector_type,
    provider_system: definition.provider_system,
    connector_id: definition.connector_id,
    version: definition.version,
    required_permissions: [...definition.required_permissions],
    emits_entities: [...definition.emits_entities],
    emits_relationships: [...definition.emits_relationships],
    limits_blind_spots: [...definition.limits_blind_spots],
    supports_test: definition.supports_test,
    configuration_schema: publishedJsonSchema(definition.configurationSchema, definition.examples.configuration),
    scope_schema: publishedJsonSchema(definition.scopeSchema, definition.examples.scope),
    created_at: definition.created_at,
    updated_at: definition.updated_at,
  };
  views.set(definition, view);
  return structuredClone(view);
}
