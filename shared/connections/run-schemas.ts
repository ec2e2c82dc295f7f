/** Request and response schemas of the discovery run endpoints (runs and their change sets). */
import * as z from 'zod/mini';
import { idOf, TimestampSchema } from '../schemas/field-schemas';
import { RemediationSchema } from './schemas';
import { EntityRefSchema } from './inventory-schemas';

const CountsByKind = z.record(z.string(), z.number().check(z.int()));
const Count = z.number().check(z.int(), z.gte(0));

export const RunProgressSchema = z
  .object({
    phase: z.enum(['reading', 'sweeping', 'finalizing']),
    requests: Count.check(z.meta({ description: 'Provider requests sent so far' })),
    pages: Count.check(z.meta({ description: 'Provider pages read so far, all tracks' })),
    items_written: Count.check(z.meta({ description: 'Inventory items written so far (unchanged items are not written again)' })),
    throttled_seconds: Count.check(z.meta({ description: "Time spent waiting for the provider's rate limits" })),
    tracks: z.record(z.string(), z.object({ status: z.enum(['pending', 'reading', 'done', 'refused']), pages: Count })),
  })
  .check(z.meta({ description: 'Where the run is: refreshed when each step starts, every few seconds while it reads, and when it ends; a finished run keeps its last progress' }))
  .register(z.globalRegistry, { id: 'RunProgress' });

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
    progress: RunProgressSchema,
    confirm_removals: z.boolean().check(z.meta({ description: 'Started with `confirm_removals`: drops the mass-removal guard would hold were accepted' })),
    stats: z
      .object({ steps: z.number().check(z.int()), provider_requests: z.number().check(z.int()), throttled_ms: z.number().check(z.int()), items_written: z.number().check(z.int()), items_deleted: z.number().check(z.int()), dangling_relationships: z.number().check(z.int()) })
      .check(z.meta({ description: 'How the run went: checkpointed steps, provider requests, time spent waiting for rate limits, inventory items written and deleted, relationships refused because the provider never listed one of their ends' })),
  })
  .register(z.globalRegistry, { id: 'Run' });

export const StartRunBodySchema = z
  .strictObject({
    confirm_removals: z.optional(z.boolean().check(z.meta({ description: 'Accept, in this run, the removals a previous run held back (an error of category `safety`)' }))),
  })
  .register(z.globalRegistry, { id: 'StartRunBody' });

export const ConnectionRunListSchema = z.object({ runs: z.array(RunSchema), next_cursor: z.nullable(z.string()) });

export const RunPathSchema = z.strictObject({ id: idOf('conn'), run_id: idOf('run') });

const AttributeChangeSchema = z
  .object({
    attribute: z.string(),
    before: z.nullable(z.string()).check(z.meta({ description: 'The earlier value as text (a string as it is, anything else as JSON; at most 200 characters); null when it was absent' })),
    after: z.nullable(z.string()).check(z.meta({ description: 'The value this run read, as text; null when it is gone' })),
  })
  .register(z.globalRegistry, { id: 'AttributeChange' });

export const RunChangeSchema = z
  .object({
    change: z.enum(['added', 'removed', 'changed']),
    kind: z.string(),
    entity_id: z.string().check(z.meta({ description: 'The entity; for a relationship, its `from` end' })),
    source_id: z.string(),
    display_name: z.string().check(z.meta({ description: 'The name of the entity, or of the relationship\'s `from` end' })),
    to_entity_id: z.optional(z.string()).check(z.meta({ description: 'Relationships only: the `to` end' })),
    to_source_id: z.optional(z.string()),
    from: z.optional(EntityRefSchema).check(z.meta({ description: 'Relationships only: the `from` end, named' })),
    to: z.optional(EntityRefSchema).check(z.meta({ description: 'Relationships only: the `to` end, named' })),
    changed_attributes: z.optional(z.array(AttributeChangeSchema)).check(
      z.meta({ description: 'A `changed` entity only: what it says differently from the previous run, its name as `display_name` and each attribute, in name order (at most 20)' }),
    ),
  })
  .register(z.globalRegistry, { id: 'RunChange' });

export const RunChangeListSchema = z.object({ changes: z.array(RunChangeSchema), next_cursor: z.nullable(z.string()) });
