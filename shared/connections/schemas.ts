/**
 * Request and response schemas of the catalog and connection endpoints. `scope` and
 * `configuration` are checked here only for being objects; each integration's own schemas
 * (shared/connectors/catalog.ts) validate their contents.
 */
import * as z from 'zod/mini';
import { DisplayText, idOf, TimestampSchema } from '../http/common-schemas';
import { entityKinds, relationshipKinds } from '../connectors/discovery';
import { canonicalTimeZone } from '../runs/schedule';

const ConnectionName = DisplayText(128);
const JsonObject = z.record(z.string(), z.unknown());

const TimeZoneSchema = z
  .pipe(
    z.string().check(z.minLength(1), z.maxLength(64)),
    z.transform((name: string, ctx) => {
      const canonical = canonicalTimeZone(name);
      if (canonical) return canonical;
      ctx.issues.push({ code: 'custom', message: 'must be an IANA time zone name, such as Europe/Paris or America/New_York', input: name });
      return z.NEVER;
    }),
  )
  .check(z.meta({ description: 'IANA time zone of hour and minute (default UTC); daylight saving time is followed.', examples: ['Europe/Paris'] }));

export const ScheduleSchema = z.strictObject({
  type: z.literal('daily'),
  hour: z.number().check(z.int(), z.gte(0), z.lte(23)),
  minute: z.number().check(z.int(), z.gte(0), z.lte(59)),
  timezone: z.optional(TimeZoneSchema),
});

const ScheduleViewSchema = z.object({
  type: z.literal('daily'),
  hour: z.number().check(z.int()),
  minute: z.number().check(z.int()),
  timezone: z.string(),
});

export const CreateConnectionBodySchema = z.strictObject({
  integration_id: z.string().check(z.minLength(1), z.maxLength(128)),
  name: ConnectionName,
  scope: JsonObject,
  schedule: ScheduleSchema,
  configuration: JsonObject,
});

export const UpdateConnectionBodySchema = z
  .strictObject({
    integration_id: z.optional(z.string().check(z.minLength(1), z.maxLength(128))),
    name: z.optional(ConnectionName),
    scope: z.optional(JsonObject),
    schedule: z.optional(ScheduleSchema),
    configuration: z.optional(JsonObject),
  })
  .check(z.refine((b) => Object.keys(b).length > 0, { message: 'give at least one field to change', path: [] }));

export const ConnectionListQuerySchema = z.strictObject({
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 50),
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  integration_id: z.optional(z.string().check(z.minLength(1), z.maxLength(128))),
});

export const AuditEventQuerySchema = z.strictObject({
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 50),
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  action: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
  target_id: z.optional(z.string().check(z.minLength(1), z.maxLength(128))),
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
    last_run_at: z.nullable(TimestampSchema),
    next_run_at: z.nullable(TimestampSchema).check(z.meta({ description: 'When the schedule fires next (UTC)' })),
    configuration_schema_version: z.number().check(z.int()),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .register(z.globalRegistry, { id: 'Connection' });

export const ConnectionListSchema = z.object({ connections: z.array(ConnectionSchema), next_cursor: z.nullable(z.string()) });

export const ConnectionTestResultSchema = z
  .object({ test_id: z.string(), status: z.enum(['success', 'failure']), checked_at: TimestampSchema, remediation: z.array(RemediationSchema) })
  .register(z.globalRegistry, { id: 'ConnectionTestResult' });

export const ConnectionTestListSchema = z.object({
  tests: z.array(z.extend(ConnectionTestResultSchema, { connection_id: z.string(), tenant_id: z.string(), workspace_id: z.string(), created_at: TimestampSchema })),
  next_cursor: z.nullable(z.string()),
});

const CountsByKind = z.record(z.string(), z.number().check(z.int()));

export const RunSchema = z
  .object({
    run_id: z.string(),
    connection_id: z.string(),
    trigger: z.enum(['schedule', 'manual']),
    status: z.enum(['queued', 'running', 'succeeded', 'partial', 'failed']),
    queued_at: TimestampSchema,
    started_at: z.nullable(TimestampSchema),
    finished_at: z.nullable(TimestampSchema),
    counts: z.object({ entities: CountsByKind, relationships: CountsByKind }),
    changes: z.object({
      entities_added: z.number().check(z.int()),
      entities_removed: z.number().check(z.int()),
      entities_changed: z.number().check(z.int()),
      relationships_added: z.number().check(z.int()),
      relationships_removed: z.number().check(z.int()),
    }),
    errors: z.array(RemediationSchema),
    stats: z
      .object({ steps: z.number().check(z.int()), provider_requests: z.number().check(z.int()), throttled_ms: z.number().check(z.int()), items_written: z.number().check(z.int()), items_deleted: z.number().check(z.int()) })
      .check(z.meta({ description: 'How the run went: checkpointed steps, provider requests, time spent waiting for rate limits, inventory items written and deleted' })),
  })
  .register(z.globalRegistry, { id: 'Run' });

export const ConnectionRunListSchema = z.object({ runs: z.array(RunSchema), next_cursor: z.nullable(z.string()) });

export const RunPathSchema = z.strictObject({ id: idOf('conn'), run_id: idOf('run') });

const EntityKindSchema = z.enum(entityKinds);
const RelationshipKindSchema = z.enum(relationshipKinds);
const EntityIdSchema = z.string().check(z.regex(/^ent_[0-9a-z]{26}$/, { message: 'must be an ent_ identifier' }));

export const EntityListQuerySchema = z.strictObject({
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 50),
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  kind: z.optional(EntityKindSchema),
});

export const RelationshipListQuerySchema = z.strictObject({
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 50),
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  kind: z.optional(RelationshipKindSchema),
  entity_id: z.optional(EntityIdSchema).check(z.meta({ description: 'Only relationships with this entity at either end' })),
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
  .register(z.globalRegistry, { id: 'Entity' });

export const EntityListSchema = z.object({ entities: z.array(EntitySchema), next_cursor: z.nullable(z.string()) });

export const RelationshipSchema = z
  .object({
    kind: RelationshipKindSchema,
    from_entity_id: z.string(),
    to_entity_id: z.string(),
    from_source_id: z.string(),
    to_source_id: z.string(),
    first_seen_at: TimestampSchema,
  })
  .register(z.globalRegistry, { id: 'Relationship' });

export const RelationshipListSchema = z.object({ relationships: z.array(RelationshipSchema), next_cursor: z.nullable(z.string()) });

export const RunChangeSchema = z
  .object({
    change: z.enum(['added', 'removed', 'changed']),
    kind: z.string(),
    entity_id: z.string().check(z.meta({ description: 'The entity; for a relationship, its `from` end' })),
    source_id: z.string(),
    to_entity_id: z.optional(z.string()).check(z.meta({ description: 'Relationships only: the `to` end' })),
    to_source_id: z.optional(z.string()),
  })
  .register(z.globalRegistry, { id: 'RunChange' });

export const RunChangeListSchema = z.object({ changes: z.array(RunChangeSchema), next_cursor: z.nullable(z.string()) });

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

export const AuditEventSchema = z
  .object({
    event_id: z.string(),
    tenant_id: z.string(),
    workspace_id: z.nullable(z.string()),
    actor_id: z.nullable(z.string()),
    action: z.string(),
    target_type: z.string(),
    target_id: z.string(),
    payload: z.record(z.string(), z.unknown()),
    created_at: TimestampSchema,
    seq: z.number().check(z.int(), z.gte(1), z.meta({ description: "The event's place in its log's hash chain: 1, 2, … without a gap" })),
    prev_digest: z.nullable(z.string()).check(z.meta({ description: 'The digest of the event before it in the chain; null for the first' })),
    digest: z.string().check(z.meta({ description: 'SHA-256 (hex) of the canonical JSON of the event without this field (README, "Tamper-evident audit")' })),
  })
  .register(z.globalRegistry, { id: 'AuditEvent' });

export const AuditEventListSchema = z.object({ audit_events: z.array(AuditEventSchema), next_cursor: z.nullable(z.string()) });

/** An event of the tenant's identity log: as the workspace log's, with the source address. */
export const TenantAuditEventSchema = z.extend(AuditEventSchema, { source_ip: z.nullable(z.string()) }).register(z.globalRegistry, { id: 'TenantAuditEvent' });
export const TenantAuditEventListSchema = z.object({ audit_events: z.array(TenantAuditEventSchema), next_cursor: z.nullable(z.string()) });
