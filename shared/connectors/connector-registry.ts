/**
 * The connector (provider client: its test and its discovery) of each catalog integration, by
 * `connector_id`. Apart from `catalog.ts` so that only the code that talks to a provider (the
 * connection test, the runs) bundles the provider clients (AWS IAM and STS, the Entra ID, Graph
 * and ARM calls, Okta); creating or editing a connection needs the catalog's schemas alone.
 */
import type { Connector, IntegrationDefinition } from './connector';
import { awsConnector } from './aws/connector';
import { azureConnector } from './azure/connector';
import { oktaConnector } from './okta/connector';

// The catalog types each entry's connector against its own schemas; here they are widened.
const connectors: Readonly<Record<string, Connector<never, never>>> = {
  'aws-iam': awsConnector,
  'azure-entra': azureConnector,
  okta: oktaConnector,
};

/** The connector of a catalog integration (every catalog entry has one: test/unit/connectors-catalog.test.ts). */
export function connectorOf(integration: Pick<IntegrationDefinition, 'connector_id'>): Connector<unknown, unknown> {
  const connector = connectors[integration.connector_id];
  if (!connector) throw new Error(`No connector for ${integration.connector_id}`);
  // Callers pass a configuration and scope the entry's own schemas have validated.
  return connector as unknown as Connector<unknown, unknown>;
}
