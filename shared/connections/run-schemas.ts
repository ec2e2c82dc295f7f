/** Request and response schemas of the discovery run endpoints (runs and their change sets). */
import * as z from 'zod/mini';
import { idOf, TimestampSchema } from '../schemas/field-schemas';
import { RemediationSchema } from './schemas';

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
