/**
 * The prefix search of a connection's entities (`GET /v1/connections/{id}/entities?q=`): a
 * case-insensitive prefix of `display_name` or `source_id`.
 *
 * Each entity has two entries in GSI1, in partitions per (connection, kind, first character of
 * the lower-cased text): its name's on the entity item itself (so a rename moves it, and the
 * query returns the entity whole), and its source id's on a small item beside the entity,
 * written when the entity is added and deleted with it (a source id never changes). A search
 * reads, kind by kind, the name entries that start with the prefix, then the source-id entries
 * that start with it whose entity's name does not (those were listed already): every read is
 * one page of one index partition, never a whole inventory.
 */
import type { Deps } from '../deps';
import { searchKeyOf } from '../access/people-records';
import { SEARCH_KEY_CHARACTERS } from '../connections/inventory-schemas';
import { keys } from '../store/keys';
import type { InventoryEntityRecord } from '../store/records';
import type { Page, PageRequest, StoredItem } from '../store/table-client';
import type { InventoryScope } from './inventory-writer';


/** Index keys hold the first SEARCH_KEY_CHARACTERS of a name or source id (ARNs can be long; an index key at most 1 KiB). */
export const inventorySearchKeyOf = (text: string): string => [...searchKeyOf(text)].slice(0, SEARCH_KEY_CHARACTERS).join('');

/** The GSI1 attributes of an entity item: its name's search entry (none for an empty name). */
export function nameSearchAttributes(scope: InventoryScope, record: Pick<InventoryEntityRecord, 'kind' | 'entity_id' | 'display_name'>): Record<string, string> {
  const nameKey = inventorySearchKeyOf(record.display_name);
  return nameKey ? keys.inventoryEntityByName(scope.tenantId, scope.workspaceId, scope.connectionId, record.kind, nameKey, record.entity_id) : {};
}

/** The source-id search item of an entity. */
export function sourceSearchItem(scope: InventoryScope, record: Pick<InventoryEntityRecord, 'kind' | 'entity_id' | 'source_id'>): StoredItem {
  const { tenantId: t, workspaceId: w, connectionId: c } = scope;
  const sourceKey = inventorySearchKeyOf(record.source_id);
  return {
    ...keys.inventoryEntitySourceKey(t, w, c, record.kind, record.entity_id),
    ...(sourceKey ? keys.inventoryEntityBySourceId(t, w, c, record.kind, sourceKey, record.entity_id) : {}),
    entity_id: record.entity_id,
    kind: record.kind,
  };
}

type Segment = (request: PageRequest) => Promise<Page<InventoryEntityRecord>>;

/** The search's segments, in the order they are listed: for each kind, name matches, then source-id matches. */
export function entitySearchSegments(deps: Deps, scope: InventoryScope, q: string, kinds: readonly string[]): Segment[] {
  const { tenantId: t, workspaceId: w, connectionId: c } = scope;
  const prefix = inventorySearchKeyOf(q);
  return kinds.flatMap((kind): Segment[] => [
    (request) => {
      const index = keys.inventoryEntitiesByName(t, w, c, kind, prefix);
      return deps.table.queryIndexPrefix<InventoryEntityRecord>('GSI1', index.GSI1PK, index.GSI1SKPrefix, request, { newestFirst: false });
    },
    async (request) => {
      const index = keys.inventoryEntitiesBySourceId(t, w, c, kind, prefix);
      const items: InventoryEntityRecord[] = [];
      let cursor = request.cursor;
      // Entries whose entity the name segment listed are skipped: read on until the page is full.
      do {
        const page = await deps.table.queryIndexPrefix<{ entity_id: string; kind: string }>('GSI1', index.GSI1PK, index.GSI1SKPrefix, { limit: request.limit - items.length, cursor }, { newestFirst: false });
        const stored = page.items.length > 0 ? await deps.table.batchGet(page.items.map((e) => keys.inventoryEntity(t, w, c, e.kind, e.entity_id))) : [];
        const found = new Map(stored.map((item) => [item.entity_id as string, item as unknown as InventoryEntityRecord]));
        for (const entry of page.items) {
          const entity = found.get(entry.entity_id);
          if (entity && !inventorySearchKeyOf(entity.display_name).startsWith(prefix)) items.push(entity);
        }
        cursor = page.nextCursor ?? undefined;
      } while (cursor && items.length < request.limit);
      return { items, nextCursor: cursor ?? null };
    },
  ]);
}
