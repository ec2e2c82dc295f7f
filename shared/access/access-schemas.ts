/** Request and response schemas of the access graph: people, access, access history. */
import * as z from 'zod/mini';
import { EntityPathSchema, EntityRefSchema } from '../connections/inventory-schemas';
import { idOf, TimestampSchema } from '../schemas/field-schemas';

const Limit = z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 50);
const Cursor = z.optional(z.string().check(z.minLength(1), z.maxLength(2048)));
const PersonId = idOf('per');
const ConnectionId = idOf('conn');

export const PeopleListQuerySchema = z.strictObject({
  limit: Limit,
  cursor: Cursor,
  q: z.optional(z.string().check(z.minLength(1), z.maxLength(256), z.meta({ description: 'A case-insensitive prefix of the display name or of an email' }))),
});

export const PersonPathSchema = z.strictObject({ person_id: PersonId });

export const PersonAccessQuerySchema = z.strictObject({
  limit: Limit,
  cursor: Cursor,
  connection_id: z.optional(ConnectionId),
  kind: z.optional(z.enum(['Entitlement', 'Resource'])),
});

export const EntityAccessPathSchema = EntityPathSchema;

export const EntityAccessQuerySchema = z.strictObject({ limit: Limit, cursor: Cursor });

export const AccessChangesQuerySchema = z
  .strictObject({
    limit: Limit,
    cursor: Cursor,
    since: z.optional(TimestampSchema.check(z.meta({ description: 'Changes at or after this time' }))),
    until: z.optional(TimestampSchema.check(z.meta({ description: 'Changes before this time' }))),
    person_id: z.optional(PersonId),
    connection_id: z.optional(ConnectionId),
  })
  .check(z.refine((q) => !q.since || !q.until || q.since < q.until, { message: 'must be after since', path: ['until'] }));

const PersonNameSchema = z.object({ person_id: z.string(), display_name: z.string() });

export const PersonSchema = z
  .object({ person_id: z.string(), display_name: z.string(), emails: z.array(z.string()), accounts: z.number().check(z.int()), connections: z.array(z.string()) })
  .register(z.globalRegistry, { id: 'Person' });

export const PeopleListSchema = z.object({ people: z.array(PersonSchema), next_cursor: z.nullable(z.string()) });

export const PersonDetailSchema = z.object({
  person_id: z.string(),
  display_name: z.string(),
  emails: z.array(z.string()),
  accounts: z.array(z.object({ entity_id: z.string(), kind: z.string(), source_id: z.string(), display_name: z.string(), connection_id: z.string() })),
});

const PathSchema = z.array(EntityRefSchema);

export const PersonAccessListSchema = z.object({
  access: z.array(z.object({ connection_id: z.string(), target: EntityRefSchema, paths: z.array(PathSchema) })),
  next_cursor: z.nullable(z.string()),
});

export const EntityAccessListSchema = z.object({
  access: z.array(z.object({ person: PersonNameSchema, account: EntityRefSchema, paths: z.array(PathSchema) })),
  next_cursor: z.nullable(z.string()),
});

export const AccessChangeListSchema = z.object({
  access_changes: z.array(
    z.object({
      at: TimestampSchema,
      run_id: z.string(),
      connection_id: z.string(),
      change: z.enum(['gained', 'lost']),
      person: PersonNameSchema,
      target: EntityRefSchema,
      via: EntityRefSchema,
    }),
  ),
  next_cursor: z.nullable(z.string()),
});
