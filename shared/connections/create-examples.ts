/**
 * Example bodies of `POST /v1/connections`, one per integration of the catalog, built from the
 * example scope and configuration each integration publishes (and its tests validate): what
 * the OpenAPI document offers to documentation tools and client generators.
 */
import { integrations } from '../connectors/catalog';
import type { CreateConnectionBodySchema } from './schemas';
import type { z } from 'zod/mini';

export function createConnectionExamples(): Record<string, { summary: string; value: z.input<typeof CreateConnectionBodySchema> }> {
  return Object.fromEntries(
    integrations.map((integration) => [
      integration.integration_id,
      {
        summary: integration.name,
        value: {
          integration_id: integration.integration_id,
          name: `${integration.name} (example)`,
          scope: integration.examples.scope as Record<string, unknown>,
          schedule: { type: 'daily' as const, hour: 2, minute: 30 },
          configuration: integration.examples.configuration as Record<string, unknown>,
        },
      },
    ]),
  );
}
