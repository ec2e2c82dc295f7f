/**
 * Request and response schemas of the connection endpoints (create, read, update, delete, test).
 * `scope` and `configuration` are checked here only for being objects; each integration's own
 * schemas (shared/connectors/catalog.ts) validate their contents. The catalog, run, inventory
 * and audit schemas have modules of their own, so a function carries only its route's.
 */
import * as z from 'zod/mini';
import { DisplayText, idOf, TimestampSchema } from '../schemas/field-schemas';
import { acceptedTimeZone } from '../runs/schedule';

const ConnectionName = DisplayText(128);

const JsonObject = z.record(z.string(), z.unknown());

const TimeZoneSchema = z
  .pipe(
    z.string().check(z.minLength(1), z.maxLength(64)),
    z.transform((name: string, ctx) => {
      const accepted = acceptedTimeZone(name);
      if (accepted) return accepted;
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
