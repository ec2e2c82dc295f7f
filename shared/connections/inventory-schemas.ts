/** Request and response schemas of a connection's inventory endpoints (entities, relationships). */
import * as z from 'zod/mini';
import { idOf, TimestampSchema } from '../schemas/field-schemas';
import { entityKinds, relationshipKinds } from '../connectors/discovery';

const EntityKindSchema = z.enum(entityKinds);

/** The longest `q` of the entity search: the search index keeps this many characters of a name or source id. */
export const SEARCH_KEY_CHARACTERS = 200;

const RelationshipKindSchema = z.enum(relationshipKinds);

const EntityIdSchema = z.string().check(z.regex(/^ent_[0-9a-z]{26}$/, { message: 'must be an ent_ identifier' }));

/** An entity ref (API.md): every answer that points at an entity names it. */
export const EntityRefSchema = z
  .object({ entity_id: z.string(), kind: EntityKindSchema, source_id: z.string(), display_name: z.string() })
  .register(z.globalRegistry, { id: 'EntityRef' });

export const EntityListQuerySchema = z.strictObject({
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 50),
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  kind: z.optional(EntityKindSchema),
  q: z.optional(
    z.string().check(
      z.minLength(1),
      z.maxLength(SEARCH_KEY_CHARACTERS),
      // eslint-disable-next-line no-control-regex
      z.regex(/^[^\u0000-\u001f]*$/, { message: 'must not hold control characters' }),
      z.meta({ description: 'A case-insensitive prefix of the display name or of the source id; matches are listed kind by kind, name matches first' }),
    ),
  ),
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

const NeighbourSchema = z.object({ kind: RelationshipKindSchema, entity: EntityRefSchema });

/** An entity with its first relationships each way (the relationships list, with `entity_id`, pages the rest). */
export const EntityDetailSchema = z
  .object({
    ...EntitySchema.def.shape,
    relationships: z.object({
      out: z.array(NeighbourSchema).check(z.meta({ description: 'Relationships from this entity, at most 100: their kind and the entity at the other end' })),
      in: z.array(NeighbourSchema).check(z.meta({ description: 'Relationships to this entity, at most 100' })),
      out_total: z.number().check(z.int(), z.gte(0)),
      in_total: z.number().check(z.int(), z.gte(0)),
    }),
  })
  .register(z.globalRegistry, { id: 'EntityDetail' });

export const EntityPathSchema = z.strictObject({ id: idOf('conn'), entity_id: EntityIdSchema });

export const RelationshipSchema = z
  .object({
    kind: RelationshipKindSchema,
    from_entity_id: z.string(),
    to_entity_id: z.string(),
    from_source_id: z.string(),
    to_source_id: z.string(),
    from: EntityRefSchema,
    to: EntityRefSchema,
    first_seen_at: TimestampSchema,
  })
  .register(z.globalRegistry, { id: 'Relationship' });

export const RelationshipListSchema = z.object({ relationships: z.array(RelationshipSchema), next_cursor: z.nullable(z.string()) });


export const EntityIdPathSchema = EntityIdSchema;
