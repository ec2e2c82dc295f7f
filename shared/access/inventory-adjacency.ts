/**
 * The inventory's adjacency, as the access graph walks it: a relationship is stored under its
 * `from` end (main index, by kind and from id) and found from its `to` end through GSI1. Every
 * walk pages through the table; what it holds is one entity's neighbours, never a partition.
 */
import type { Deps } from '../deps';
import type { WorkspaceScope } from '../identity/principal';
import { keys } from '../store/keys';
import type { InventoryEntityRecord, InventoryRelationshipRecord } from '../store/records';
import type { Page, PageRequest } from '../store/table-client';

export interface EntityRef {
  entity_id: string;
  kind: string;
  source_id: string;
  display_name: string;
}

export interface Neighbour {
  entity_id: string;
  source_id: string;
}

type Scope = WorkspaceScope & { connectionId: string };

const NEIGHBOUR_PAGE = 1000;

/** Every `to` end of `kind` relationships from `fromId`. */
export async function outgoing(deps: Deps, scope: Scope, kind: string, fromId: string): Promise<Neighbour[]> {
  const prefix = keys.inventoryRelationshipsFrom(scope.tenantId, scope.workspaceId, scope.connectionId, kind, fromId);
  const out: Neighbour[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await deps.table.queryRaw(prefix, { startKey, limit: NEIGHBOUR_PAGE, projection: ['to_entity_id', 'to_source_id'] });
    for (const item of page.items) out.push({ entity_id: item.to_entity_id as string, source_id: item.to_source_id as string });
    startKey = page.lastKey;
  } while (startKey);
  return out;
}

/** One page of the `from` ends of `kind` relationships to `toId`, in from-id order. */
export async function incomingPage(deps: Deps, scope: Scope, kind: string, toId: string, request: PageRequest): Promise<Page<Neighbour>> {
  const to = keys.inventoryRelationshipsTo(scope.tenantId, scope.workspaceId, scope.connectionId, toId, kind);
  const page = await deps.table.queryIndexPrefix<InventoryRelationshipRecord>('GSI1', to.GSI1PK, to.GSI1SKPrefix, request, { newestFirst: false });
  return { items: page.items.map((r) => ({ entity_id: r.from_entity_id, source_id: r.from_source_id })), nextCursor: page.nextCursor };
}

/** Every `from` end of `kind` relationships to `toId`. */
export async function incoming(deps: Deps, scope: Scope, kind: string, toId: string): Promise<Neighbour[]> {
  const out: Neighbour[] = [];
  let cursor: string | undefined;
  do {
    const page = await incomingPage(deps, scope, kind, toId, { limit: NEIGHBOUR_PAGE, cursor });
    out.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out;
}

/**
 * The refs of entities of one connection, in one batch read per 100. An entity no longer in
 * the inventory (removed by the run being recorded) is named by its provider id.
 */
export async function refsOf(deps: Deps, scope: Scope, wanted: readonly { entity_id: string; kind: string; source_id: string }[]): Promise<Map<string, EntityRef>> {
  const unique = new Map(wanted.map((w) => [w.entity_id, w]));
  const refs = new Map<string, EntityRef>();
  if (unique.size === 0) return refs;
  const found = await deps.table.batchGet(
    [...unique.values()].map((w) => keys.inventoryEntity(scope.tenantId, scope.workspaceId, scope.connectionId, w.kind, w.entity_id)),
    { projection: ['entity_id', 'kind', 'source_id', 'display_name'] },
  );
  for (const item of found as unknown as InventoryEntityRecord[]) refs.set(item.entity_id, { entity_id: item.entity_id, kind: item.kind, source_id: item.source_id, display_name: item.display_name });
  for (const w of unique.values()) if (!refs.has(w.entity_id)) refs.set(w.entity_id, { entity_id: w.entity_id, kind: w.kind, source_id: w.source_id, display_name: w.source_id });
  return refs;
}
