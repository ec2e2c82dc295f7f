/** Request and response schemas of the discovery run endpoints (runs and their change sets). */
import * as z from 'zod';
import { idOf, TimestampSchema } from '../schemas/field-schemas';
import { RemediationSchema } from './schemas';

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
