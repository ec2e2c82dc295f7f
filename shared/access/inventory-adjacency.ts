/**
 * The inventory's adjacency, as the access graph walks it: a relationship is stored under its
 * `from` end (main index, by kind and from id) and found from its `to` end through GSI1. Every
 * walk pages through the table; what it holds is one entity's neighbours, never a partition.
 */
import type { Deps } from '../deps';
import type { WorkspaceScope } from '../identity/principal';
import { keys } from '../store/keys';
import type { InventoryRelationshipRecord } from '../store/records';
import { entityRefs, type EntityRef } from '../runs/entity-refs';
import type { Page, PageRequest } from '../store/table-client';

export type { EntityRef } from '../runs/entity-refs';

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

/** The refs of entities of one connection (entity-refs.ts: one batch read per 100, removed entities named too). */
export const refsOf = (deps: Deps, scope: Scope, wanted: readonly { entity_id: string; kind: string; source_id: string }[]): Promise<Map<string, EntityRef>> => entityRefs(deps, scope, wanted);
