/**
 * The contract between the connection use cases and the provider connectors.
 * A connector is a real client of its provider's API (base URL overridable for tests) and
 * never throws for anything the provider answers: unreachable, throttled, refused and
 * under-privileged all come back as a `failure` with remediation items.
 */
import type { z } from 'zod/mini';
import type { Discovery, DiscoveryTrack } from './discovery';

export type ProviderSystem = 'cloud_provider_a' | 'cloud_provider_b' | 'identity_provider_a';

export interface RemediationItem {
  /** `permissions`, `credentials`, `connectivity`, `throttling`, `configuration`. */
  category: string;
  message: string;
  /** Directly usable: the exact policy statement, permission list or admin role to grant, and to whom. */
  action: string;
}

export interface ConnectorTestResult {
  status: 'success' | 'failure';
  remediation: RemediationItem[];
}

export interface ConnectorContext {
  /** Aborted when the test's time limit is reached. */
  signal: AbortSignal;
  /** Overrides the provider's API base URL(s); tests point connectors at local servers. */
  endpoints?: Record<string, string>;
  /** Okta org host → base URL, ahead of `endpoints.okta` (local mode with several orgs). */
  oktaOrgs?: Record<string, string>;
}

export interface Connector<Config, Scope> {
  test(input: { configuration: Config; scope: Scope }, context: ConnectorContext): Promise<ConnectorTestResult>;
  /** Reads the provider page by page for a discovery run (shared/connectors/discovery.ts). */
  discover: Discovery<Config, Scope>;
}

/**
 * One catalog entry: the spec's Integration fields plus the schemas. Its connector (the
 * provider client) is looked up apart, with `connectorOf` of `connector-registry.ts`.
 */
export interface IntegrationDefinition<C extends z.ZodMiniType = z.ZodMiniType, S extends z.ZodMiniType = z.ZodMiniType> {
  integration_id: string;
  name: string;
  connector_type: 'discovery';
  provider_system: ProviderSystem;
  connector_id: string;
  /** Semantic version of the connector (the connection stores it as connector_version). */
  version: string;
  required_permissions: string[];
  emits_entities: string[];
  emits_relationships: string[];
  limits_blind_spots: string[];
  supports_test: boolean;
  /** Validates `configuration`; secret fields are marked `z.meta({ writeOnly: true })`. */
  configurationSchema: C;
  configurationSchemaVersion: number;
  /** Validates `scope`. */
  scopeSchema: S;
  /** The tracks a discovery run of a scope reads (what its progress starts from; the connector reads them). */
  discoveryTracks: (scope: z.infer<S>) => DiscoveryTrack[];
  /** One valid value of each, published as the JSON Schema's `examples`. */
  examples: { configuration: z.infer<C>; scope: z.infer<S> };
  created_at: string;
  updated_at: string;
}
