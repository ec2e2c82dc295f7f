/**
 * Request and response schemas of the catalog and connection endpoints. `scope` and
 * `configuration` are checked here only for being objects; each integration's own schemas
 * (shared/connectors/catalog.ts) validate their contents.
 */
import * as z from 'zod';
import { idOf, TimestampSchema } from '../http/common-schemas';

const ConnectionName = z.string().trim().min(1).max(128);
const JsonObject = z.record(z.string(), z.unknown());

export const ScheduleSchema = z.strictObject({
  type: z.literal('daily'),
  hour: z.number().int().min(0).max(23),
  minute: z.number().int().min(0).max(59),
});

export const CreateConnectionBodySchema = z.strictObject({
  integration_id: z.string().min(1).max(128),
  name: ConnectionName,
  scope: JsonObject,
  schedule: ScheduleSchema,
  configuration: JsonObject,
});

export const UpdateConnectionBodySchema = z
  .strictObject({
    integration_id: z.string().min(1).max(128).optional(),
    name: ConnectionName.optional(),
    scope: JsonObject.optional(),
    schedule: ScheduleSchema.optional(),
    configuration: JsonObject.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'give at least one field to change', path: [] });

export const ConnectionListQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().min(1).max(2048).optional(),
  integration_id: z.string().min(1).max(128).optional(),
});

export const AuditEventQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().min(1).max(2048).optional(),
  action: z.string().min(1).max(64).optional(),
  target_id: z.string().min(1).max(128).optional(),
});

export const ConnectionPathSchema = z.strictObject({ id: idOf('conn') });

export const RemediationSchema = z.object({ category: z.string(), message: z.string(), action: z.string() });

export const ConnectionSchema = z
  .object({
    connection_id: z.string(),
    integration_id: z.string(),
    connector_id: z.string(),
    connector_version: z.string(),
    name: z.string(),
    tenant_id: z.string(),
    workspace_id: z.string(),
    scope: JsonObject,
    schedule: ScheduleSchema,
    status: z.enum(['healthy', 'degraded', 'unknown']),
    last_run_at: TimestampSchema.nullable(),
    configuration_schema_version: z.number().int(),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .meta({ id: 'Connection' });

export const ConnectionListSchema = z.object({ connections: z.array(ConnectionSchema), next_cursor: z.string().nullable() });

export const ConnectionTestResultSchema = z
  .object({ test_id: z.string(), status: z.enum(['success', 'failure']), checked_at: TimestampSchema, remediation: z.array(RemediationSchema) })
  .meta({ id: 'ConnectionTestResult' });

export const ConnectionTestListSchema = z.object({
  tests: z.array(ConnectionTestResultSchema.extend({ connection_id: z.string(), tenant_id: z.string(), workspace_id: z.string(), created_at: TimestampSchema })),
  next_cursor: z.string().nullable(),
});

export const ConnectionRunListSchema = z.object({ runs: z.array(z.record(z.string(), z.unknown())), next_cursor: z.string().nullable() });

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
    configuration_schema: z.record(z.string(), z.unknown()).meta({ description: 'JSON Schema (draft 2020-12) of `configuration`' }),
    scope_schema: z.record(z.string(), z.unknown()).meta({ description: 'JSON Schema (draft 2020-12) of `scope`' }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Integration' });

export const IntegrationListSchema = z.object({ integrations: z.array(IntegrationViewSchema) });

export const AuditEventSchema = z
  .object({
    event_id: z.string(),
    tenant_id: z.string(),
    workspace_id: z.string().nullable(),
    actor_id: z.string().nullable(),
    action: z.string(),
    target_type: z.string(),
    target_id: z.string(),
    payload: z.record(z.string(), z.unknown()),
    created_at: TimestampSchema,
  })
  .meta({ id: 'AuditEvent' });

export const AuditEventListSchema = z.object({ audit_events: z.array(AuditEventSchema), next_cursor: z.string().nullable() });
