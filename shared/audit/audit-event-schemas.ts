/**
 * Request and response schemas of the audit endpoints: the workspace audit log and the tenant's
 * identity audit log.
 */
import * as z from 'zod/mini';
import { idOf, TimestampSchema } from '../schemas/field-schemas';

export const AuditEventQuerySchema = z.strictObject({
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 50),
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  action: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
  target_id: z.optional(z.string().check(z.minLength(1), z.maxLength(128))),
});

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

export const TenantAuditEventQuerySchema = z.strictObject({
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 50),
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  action: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
  actor_id: z.optional(idOf('usr')),
  since: z.optional(z.iso.datetime({ offset: true })),
  until: z.optional(z.iso.datetime({ offset: true })),
});
