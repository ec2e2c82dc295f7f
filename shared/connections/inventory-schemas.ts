/** Request and response schemas of a connection's inventory endpoints (entities, relationships). */
import * as z from 'zod/mini';
import { TimestampSchema } from '../schemas/field-schemas';
import { entityKinds, relationshipKinds } from '../connectors/discovery';

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

/** An entity ref (API.md): every answer that points at an entity names it. */
export const EntityRefSchema = z
  .object({ entity_id: z.string(), kind: EntityKindSchema, source_id: z.string(), display_name: z.string() })
  .register(z.globalRegistry, { id: 'EntityRef' });

export const EntityIdPathSchema = EntityIdSchema;
