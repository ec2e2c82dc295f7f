/**
 * Request and response schemas of the catalog and connection endpoints. `scope` and
 * `configuration` are checked here only for being objects; each integration's own schemas
 * (shared/connectors/catalog.ts) validate their contents.
 */
import * as z from 'zod';
import { DisplayText, idOf, TimestampSchema } from '../http/common-schemas';
import { entityKinds, relationshipKinds } from '../connectors/discovery';
import { canonicalTimeZone } from '../runs/schedule';

const ConnectionName = DisplayText(128);
const JsonObject = z.record(z.string(), z.unknown());

const TimeZoneSchema = z
  .string()
  .min(1)
  .max(64)
  .transform((name, ctx) => {
    const canonical = canonicalTimeZone(name);
    if (canonical) return canonical;
    ctx.addIssue({ code: 'custom', message: 'must be an IANA time zone name, such as Europe/Paris or America/New_York' });
    return z.NEVER;
  })
  .meta({ description: 'IANA time zone of hour and minute (default UTC); daylight saving time is followed.', examples: ['Europe/Paris'] });

export const ScheduleSchema = z.strictObject({
  type: z.literal('daily'),
  hour: z.number().int().min(0).max(23),
  minute: z.number().int().min(0).max(59),
  timezone: TimeZoneSchema.optional(),
});

const ScheduleViewSchema = z.object({
  type: z.literal('daily'),
  hour: z.number().int(),
  minute: z.number().int(),
  timezone: z.string(),
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
    schedule: ScheduleViewSchema,
    status: z.enum(['healthy', 'degraded', 'unknown']),
    last_run_at: TimestampSchema.nullable(),
    next_run_at: TimestampSchema.nullable().meta({ description: 'When the schedule fires next (UTC)' }),
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

const CountsByKind = z.record(z.string(), z.number().int());

export const RunSchema = z
  .object({
    run_id: z.string(),
    connection_id: z.string(),
    trigger: z.enum(['schedule', 'manual']),
    status: z.enum(['queued', 'running', 'succeeded', 'partial', 'failed']),
    queued_at: TimestampSchema,
    started_at: TimestampSchema.nullable(),
    finished_at: TimestampSchema.nullable(),
    counts: z.object({ entities: CountsByKind, relationships: CountsByKind }),
    changes: z.object({
      entities_added: z.number().int(),
      entities_removed: z.number().int(),
      entities_changed: z.number().int(),
      relationships_added: z.number().int(),
      relationships_removed: z.number().int(),
    }),
    errors: z.array(RemediationSchema),
    stats: z
      .object({ steps: z.number().int(), provider_requests: z.number().int(), throttled_ms: z.number().int(), items_written: z.number().int(), items_deleted: z.number().int() })
      .meta({ description: 'How the run went: checkpointed steps, provider requests, time spent waiting for rate limits, inventory items written and deleted' }),
  })
  .meta({ id: 'Run' });

export const ConnectionRunListSchema = z.object({ runs: z.array(RunSchema), next_cursor: z.string().nullable() });

export const RunPathSchema = z.strictObject({ id: idOf('conn'), run_id: idOf('run') });

const EntityKindSchema = z.enum(entityKinds);
const RelationshipKindSchema = z.enum(relationshipKinds);
const EntityIdSchema = z.string().regex(/^ent_[0-9a-z]{26}$/, { message: 'must be an ent_ identifier' });

export const EntityListQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().min(1).max(2048).optional(),
  kind: EntityKindSchema.optional(),
});

export const RelationshipListQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().min(1).max(2048).optional(),
  kind: RelationshipKindSchema.optional(),
  entity_id: EntityIdSchema.optional().meta({ description: 'Only relationships with this entity at either end' }),
});

export const EntitySchema = z
  .object({
    entity_id: z.string(),
    kind: EntityKindSchema,
    source_id: z.string(),
    display_name: z.string(),
    attributes: z.record(z.string(), z.unknown()),
    first_seen_at: TimestampSchema,
    last_seen_at: TimestampSchema,
  })
  .meta({ id: 'Entity' });

export const EntityListSchema = z.object({ entities: z.array(EntitySchema), next_cursor: z.string().nullable() });

export const RelationshipSchema = z
  .object({
    kind: RelationshipKindSchema,
    from_entity_id: z.string(),
    to_entity_id: z.string(),
    from_source_id: z.string(),
    to_source_id: z.string(),
    first_seen_at: TimestampSchema,
  })
  .meta({ id: 'Relationship' });

export const RelationshipListSchema = z.object({ relationships: z.array(RelationshipSchema), next_cursor: z.string().nullable() });

export const RunChangeSchema = z
  .object({
    change: z.enum(['added', 'removed', 'changed']),
    kind: z.string(),
    entity_id: z.string().meta({ description: 'The entity; for a relationship, its `from` end' }),
    source_id: z.string(),
    to_entity_id: z.string().optional().meta({ description: 'Relationships only: the `to` end' }),
    to_source_id: z.string().optional(),
  })
  .meta({ id: 'RunChange' });

export const RunChangeListSchema = z.object({ changes: z.array(RunChangeSchema), next_cursor: z.string().nullable() });

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
    seq: z.number().int().min(1).meta({ description: "The event's place in its log's hash chain: 1, 2, … without a gap" }),
    prev_digest: z.string().nullable().meta({ description: 'The digest of the event before it in the chain; null for the first' }),
    digest: z.string().meta({ description: 'SHA-256 (hex) of the canonical JSON of the event without this field (README, "Tamper-evident audit")' }),
  })
  .meta({ id: 'AuditEvent' });

export const AuditEventListSchema = z.object({ audit_events: z.array(AuditEventSchema), next_cursor: z.string().nullable() });

/** An event of the tenant's identity log: as the workspace log's, with the source address. */
export const TenantAuditEventSchema = AuditEventSchema.extend({ source_ip: z.string().nullable() }).meta({ id: 'TenantAuditEvent' });
export const TenantAuditEventListSchema = z.object({ audit_events: z.array(TenantAuditEventSchema), next_cursor: z.string().nullable() });
