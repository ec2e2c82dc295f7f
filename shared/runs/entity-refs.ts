/**
 * Entity refs (API.md: `{entity_id, kind, source_id, display_name}`): every answer that points at
 * an entity names it. Names are read when an answer is made, never copied into relationships or
 * change entries: a rename shows everywhere at once, and a run writes nothing more per
 * relationship. An entity a run removed leaves its ref behind (`keys.inventoryRemovedEntity`,
 * written by the sweep), so the relationships and changes that point at it still name it.
 */
import type { Deps } from '../deps';
import { relationshipEnds, type RelationshipKind } from '../connectors/discovery';
import { keys } from '../store/keys';
import type { InventoryEntityRecord } from '../store/records';
import type { InventoryScope } from './inventory-writer';

export interface EntityRef {
  entity_id: string;
  kind: string;
  source_id: string;
  display_name: string;
}

/** What a caller knows of an entity it must name: its id, kind and provider id. */
export type EntityPointer = Omit<EntityRef, 'display_name'>;

const REF_PROJECTION = ['entity_id', 'kind', 'source_id', 'display_name'];

/** The pointers at both ends of a relationship of `kind` (the kinds of its ends follow from it). */
export function endsOf(kind: string, from: { entity_id: string; source_id: string }, to: { entity_id: string; source_id: string }): { from: EntityPointer; to: EntityPointer } {
  const ends = relationshipEnds[kind as RelationshipKind];
  return { from: { ...from, kind: ends.from }, to: { ...to, kind: ends.to } };
}

/**
 * The refs of entities of one connection: one batch read per 100 entities in the inventory,
 * then one for the refs removed entities left behind, for those not found. An entity found in
 * neither (removed before its ref was kept) is named by its provider id.
 */
export async function entityRefs(deps: Deps, scope: InventoryScope, wanted: readonly EntityPointer[]): Promise<Map<string, EntityRef>> {
  const { tenantId: t, workspaceId: w, connectionId: c } = scope;
  const unique = [...new Map(wanted.map((p) => [p.entity_id, p])).values()];
  const refs = new Map<string, EntityRef>();
  if (unique.length === 0) return refs;
  const keep = (items: Record<string, unknown>[]) => {
    for (const item of items as unknown as InventoryEntityRecord[]) refs.set(item.entity_id, { entity_id: item.entity_id, kind: item.kind, source_id: item.source_id, display_name: item.display_name });
  };
  keep(await deps.table.batchGet(unique.map((p) => keys.inventoryEntity(t, w, c, p.kind, p.entity_id)), { projection: REF_PROJECTION }));
  const missing = unique.filter((p) => !refs.has(p.entity_id));
  if (missing.length > 0) keep(await deps.table.batchGet(missing.map((p) => keys.inventoryRemovedEntity(t, w, c, p.kind, p.entity_id)), { projection: REF_PROJECTION }));
  for (const p of unique) if (!refs.has(p.entity_id)) refs.set(p.entity_id, { ...p, display_name: p.source_id });
  return refs;
}
