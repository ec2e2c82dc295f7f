/**
 * Request and response schemas of exports (API.md "Access graph", Exports). Which filters a
 * source takes is decided here, once, so a body the job could not honour is a 400 that writes
 * nothing:
 *
 * | source | needs | may take |
 * |---|---|---|
 * | `entities`, `relationships` | `connection_id` | |
 * | `people` | | |
 * | `access` | | `person_id` (one person), `connection_id` (one connection); or `connection_id` + `entity_id` (who reaches that entity) |
 * | `access_changes` | | `person_id`, `connection_id`, `since`, `until` |
 * | `audit_events` | | `since`, `until` |
 *
 * Without `person_id` or `entity_id`, `access` is every person's access in the workspace (what an
 * auditor asks for).
 */
import * as z from 'zod/mini';
import { EntityIdPathSchema } from '../connections/inventory-schemas';
import { idOf, TimestampSchema } from '../schemas/field-schemas';

export const exportSources = ['entities', 'relationships', 'people', 'access', 'access_changes', 'audit_events'] as const;
export type ExportSource = (typeof exportSources)[number];

export const exportFormats = ['csv', 'ndjson'] as const;
export type ExportFormat = (typeof exportFormats)[number];

export const exportStatuses = ['queued', 'running', 'succeeded', 'failed'] as const;
export type ExportStatus = (typeof exportStatuses)[number];

type Filter = 'connection_id' | 'person_id' | 'entity_id' | 'since' | 'until';

/** The filters each source takes (the table above); any other is refused by name. */
export const sourceFilters: Readonly<Record<ExportSource, readonly Filter[]>> = {
  entities: ['connection_id'],
  relationships: ['connection_id'],
  people: [],
  access: ['connection_id', 'person_id', 'entity_id'],
  access_changes: ['connection_id', 'person_id', 'since', 'until'],
  audit_events: ['since', 'until'],
};

const filterNames: readonly Filter[] = ['connection_id', 'person_id', 'entity_id', 'since', 'until'];

export const CreateExportBodySchema = z
  .strictObject({
    source: z.enum(exportSources),
    format: z.enum(exportFormats),
    connection_id: z.optional(idOf('conn').check(z.meta({ description: 'entities, relationships: required. access, access_changes: only this connection' }))),
    person_id: z.optional(idOf('per').check(z.meta({ description: 'access, access_changes: only this person' }))),
    entity_id: z.optional(EntityIdPathSchema.check(z.meta({ description: 'access, with connection_id: the people who reach this entity' }))),
    since: z.optional(TimestampSchema.check(z.meta({ description: 'access_changes, audit_events: at or after this time' }))),
    until: z.optional(TimestampSchema.check(z.meta({ description: 'access_changes, audit_events: before this time' }))),
  })
  .check(
    z.superRefine((body, ctx) => {
      const allowed = sourceFilters[body.source];
      for (const name of filterNames) {
        if (body[name] !== undefined && !allowed.includes(name)) ctx.addIssue({ code: 'custom', message: `is not a filter of source ${body.source}`, path: [name], input: body[name] });
      }
      if ((body.source === 'entities' || body.source === 'relationships') && body.connection_id === undefined) {
        ctx.addIssue({ code: 'custom', message: `is required for source ${body.source}`, path: ['connection_id'], input: undefined });
      }
      if (body.source === 'access' && body.entity_id !== undefined) {
        if (body.connection_id === undefined) ctx.addIssue({ code: 'custom', message: 'is required with entity_id', path: ['connection_id'], input: undefined });
        if (body.person_id !== undefined) ctx.addIssue({ code: 'custom', message: 'cannot be given with entity_id', path: ['person_id'], input: body.person_id });
      }
      if (body.since !== undefined && body.until !== undefined && body.since >= body.until) ctx.addIssue({ code: 'custom', message: 'must be after since', path: ['until'], input: body.until });
    }),
  );

export type CreateExportBody = z.infer<typeof CreateExportBodySchema>;

export const ExportPathSchema = z.strictObject({ export_id: idOf('exp') });

export const ExportSchema = z
  .object({
    export_id: z.string(),
    source: z.enum(exportSources),
    format: z.enum(exportFormats),
    filters: z.object({
      connection_id: z.optional(z.string()),
      person_id: z.optional(z.string()),
      entity_id: z.optional(z.string()),
      since: z.optional(TimestampSchema),
      until: z.optional(TimestampSchema),
      connection_name: z.optional(z.string().check(z.meta({ description: 'The connection_id filter\'s connection, by name (as when the export was asked for)' }))),
      person_display_name: z.optional(z.string().check(z.meta({ description: 'The person_id filter\'s person, by name' }))),
      entity_display_name: z.optional(z.string().check(z.meta({ description: 'The entity_id filter\'s entity, by name' }))),
    }),
    status: z.enum(exportStatuses),
    rows: z.number().check(z.int(), z.gte(0), z.meta({ description: 'Data rows written (the CSV header not counted); final once succeeded' })),
    created_at: TimestampSchema,
    finished_at: z.nullable(TimestampSchema),
    expires_at: TimestampSchema.check(z.meta({ description: 'After this the export and its file are gone (404)' })),
    error: z.nullable(z.string()).check(z.meta({ description: 'Why a failed export failed' })),
  })
  .register(z.globalRegistry, { id: 'Export' });

export const CreatedExportSchema = z.object({ export_id: z.string(), status: z.enum(exportStatuses) });
