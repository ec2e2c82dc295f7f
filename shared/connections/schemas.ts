/**
 * Request and response schemas of the connection endpoints (create, read, update, delete, test).
 * `scope` and `configuration` are checked here only for being objects; each integration's own
 * schemas (shared/connectors/catalog.ts) validate their contents. The catalog, run, inventory
 * and audit schemas have modules of their own, so a function carries only its route's.
 */
import * as z from 'zod';
import { DisplayText, idOf, TimestampSchema } from '../schemas/field-schemas';
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
