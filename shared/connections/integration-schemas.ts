/** Response schemas of the integrations catalog. */
import * as z from 'zod/mini';

export const IntegrationViewSchema = z
  .object({
    integration_id: z.string(),
    name: z.string(),
    connector_type: z.literal('discovery'),
    provider_system: z.enum(['cloud_provider_a', 'cloud_provider_b', 'identity_provider_a']),
    connector_id: z.string(),
    version: z.string(),
    required_permissions: z.array(z.string()),
    emits_entities: z.array(z.string()),
    emits_relationships: z.array(z.string()),
    limits_blind_spots: z.array(z.string()),
    supports_test: z.boolean(),
    configuration_schema: z.record(z.string(), z.unknown()).check(z.meta({ description: 'JSON Schema (draft 2020-12) of `configuration`' })),
    scope_schema: z.record(z.string(), z.unknown()).check(z.meta({ description: 'JSON Schema (draft 2020-12) of `scope`' })),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .register(z.globalRegistry, { id: 'Integration' });

export const IntegrationListSchema = z.object({ integrations: z.array(IntegrationViewSchema) });
