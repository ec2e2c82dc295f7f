/**
 * Request and response schemas of the audit endpoints: the workspace audit log and the tenant's
 * identity audit log.
 */
import * as z from 'zod';
import { idOf, TimestampSchema } from '../schemas/field-schemas';

export const AuditEventQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().min(1).max(2048).optional(),
  action: z.string().min(1).max(64).optional(),
  target_id: z.string().min(1).max(128).optional(),
});

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

export const TenantAuditEventQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().min(1).max(2048).optional(),
  action: z.string().min(1).max(64).optional(),
  actor_id: idOf('usr').optional(),
  since: z.iso.datetime({ offset: true }).optional(),
  until: z.iso.datetime({ offset: true }).optional(),
});
