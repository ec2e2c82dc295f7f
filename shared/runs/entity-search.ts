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
import type { PageRequest, StoredItem, TransactItem } from '../store/table-client';
import type { InventoryScope } from './inventory-writer';
import type { KeyedSegment } from './segmented-pages';


/** Index keys hold the first SEARCH_KEY_CHARACTERS of a name or source id (ARNs can be long; an index key at most 1 KiB). */
export const inventorySearchKeyOf = (text: string): string => [...searchKeyOf(text)].slice(0, SEARCH_KEY_CHARACTERS).join('');

/** The GSI1 attributes of an entity item: its name's entry (an empty name's in a partition of its own, which no search reads). */
export function nameSearchAttributes(scope: InventoryScope, record: Pick<InventoryEntityRecord, 'kind' | 'entity_id' | 'display_name'>): Record<string, string> {
  return keys.inventoryEntityByName(scope.tenantId, scope.workspaceId, scope.connectionId, record.kind, inventorySearchKeyOf(record.display_name), record.entity_id);
}

/** The code point that names an entity's name-index partition (0: no name): the search key's first, without building the key (every entity a run sees). */
export const nameInitialOf = (displayName: string): number => searchKeyOf(displayName).codePointAt(0) ?? 0;

const INITIALS_PREFIX = 'initials_';

/**
 * Adds the initials of the names a step saw to the connection's roster, kind by kind: one
 * read a step, and one update when it saw a new initial. ADD to a number set is idempotent, so
 * a retried or parallel step is harmless.
 * Every entity a step sees is counted, not only those it writes, so one complete run lists
 * what was stored before the roster existed. An initial no name has any more stays (its
 * partition reads empty): the roster only grows, which also keeps list cursors valid.
 */
export async function recordNameInitials(deps: Deps, scope: InventoryScope, initials: ReadonlyMap<string, ReadonlySet<number>>): Promise<void> {
  if (initials.size === 0) return;
  const key = keys.inventoryNameInitials(scope.tenantId, scope.workspaceId, scope.connectionId);
  // Only what the roster lacks: a run over an unchanged provider then writes nothing here either.
  const roster = (await deps.table.get<Record<string, unknown>>(key)) ?? {};
  const missing = [...initials]
    .map(([kind, set]) => {
      const known = roster[`${INITIALS_PREFIX}${kind}`];
      return [kind, [...set].filter((initial) => !(known instanceof Set && known.has(initial)))] as const;
    })
    .filter(([, list]) => list.length > 0); // DynamoDB refuses an empty set
  if (missing.length === 0) return;
  const names: Record<string, string> = {};
  const values: Record<string, Set<number>> = {};
  const adds = missing.map(([kind, list], i) => {
    names[`#k${i}`] = `${INITIALS_PREFIX}${kind}`;
    values[`:k${i}`] = new Set(list);
    return `#k${i} :k${i}`;
  });
  await deps.table.update({
    Key: key,
    UpdateExpression: `ADD ${adds.join(', ')}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  });
}

/**
 * What a run that succeeded adds to its finish, once: the roster is complete. Every track was read to
 * the end and swept, so every stored entity was seen, its initial recorded. Until one such run
 * has finished the roster may lack a kind or an initial (the first steps after it appeared, or a
 * run cut short): the list does not trust it before then.
 */
export async function completeNameRoster(deps: Deps, scope: InventoryScope): Promise<TransactItem[]> {
  const key = keys.inventoryNameInitials(scope.tenantId, scope.workspaceId, scope.connectionId);
  if ((await deps.table.get<{ complete?: boolean }>(key))?.complete === true) return [];
  return [deps.table.updateItem({
    Key: key,
    UpdateExpression: 'SET #complete = :complete',
    ExpressionAttributeNames: { '#complete': 'complete' },
    ExpressionAttributeValues: { ':complete': true },
  })];
}

/**
 * The list of entities in name order (case-insensitive, ties by entity id), kinds in the given
 * order: each kind's name-index partitions in the order of their initials, read whole. A
 * segment's key is its (kind, initial), so a cursor stays valid when the roster grows. Undefined
 * when the connection has no complete roster yet (an inventory written before it, or whose first
 * run since has not succeeded: listed in storage order).
 */
export async function entityNameOrderSegments(deps: Deps, scope: InventoryScope, kinds: readonly string[]): Promise<KeyedSegment<InventoryEntityRecord>[] | undefined> {
  const { tenantId: t, workspaceId: w, connectionId: c } = scope;
  const roster = await deps.table.get<Record<string, unknown>>(keys.inventoryNameInitials(t, w, c));
  if (roster?.complete !== true) return undefined;
  return kinds.flatMap((kind) => {
    const initials = roster[`${INITIALS_PREFIX}${kind}`];
    const sorted = initials instanceof Set ? [...(initials as Set<number>)].sort((a, b) => a - b) : [];
    return sorted.map((codePoint) => ({
      key: `${kind}#${codePoint}`,
      read: (request: PageRequest) => {
        const index = keys.inventoryEntitiesByInitial(t, w, c, kind, codePoint === 0 ? '' : String.fromCodePoint(codePoint));
        return deps.table.queryIndexPrefix<InventoryEntityRecord>('GSI1', index.GSI1PK, index.GSI1SKPrefix, request, { newestFirst: false });
      },
    }));
  });
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

/** The search's segments, in the order they are listed: for each kind, name matches, then source-id matches. */
export function entitySearchSegments(deps: Deps, scope: InventoryScope, q: string, kinds: readonly string[]): KeyedSegment<InventoryEntityRecord>[] {
  const { tenantId: t, workspaceId: w, connectionId: c } = scope;
  const prefix = inventorySearchKeyOf(q);
  return kinds.flatMap((kind): KeyedSegment<InventoryEntityRecord>[] => [
    {
      key: `${kind}#name`,
      read: (request) => {
        const index = keys.inventoryEntitiesByName(t, w, c, kind, prefix);
        return deps.table.queryIndexPrefix<InventoryEntityRecord>('GSI1', index.GSI1PK, index.GSI1SKPrefix, request, { newestFirst: false });
      },
    },
    { key: `${kind}#source`, read: async (request) => {
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
    } },
  ]);
}
