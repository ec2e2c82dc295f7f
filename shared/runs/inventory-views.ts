/**
 * Reading a connection's inventory and a run's change list (permission `connections:read`).
 * Every key starts with the caller's tenant and workspace: another workspace's connection has
 * no inventory here (404 from the connection lookup).
 */
import type { Deps } from '../deps';
import { NotFoundError } from '../errors';
import { entityKinds, relationshipEnds, relationshipKinds } from '../connectors/discovery';
import type { WorkspaceScope } from '../identity/principal';
import { getConnection } from '../connections/connection-records';
import { INVENTORY_SHARDS, keys } from '../store/keys';
import type { ChangeEntry, InventoryEntityRecord, InventoryRelationshipRecord } from '../store/records';
import type { Page, PageRequest } from '../store/table-client';
import { TRACK_SEEN_PREFIX } from './run-finalize';
import { getRun } from './run-records';
import { endsOf, entityRefs, type EntityPointer, type EntityRef } from './entity-refs';
import { entityNameOrderSegments, entitySearchSegments } from './entity-search';
import { decodeJsonCursor, encodeJsonCursor, fixedSegments, pageAcross } from './segmented-pages';

export interface EntityView {
  entity_id: string;
  kind: string;
  source_id: string;
  display_name: string;
  attributes: Record<string, unknown>;
  first_seen_at: string;
  last_seen_at: string;
}

export interface RelationshipView {
  kind: string;
  from_entity_id: string;
  to_entity_id: string;
  from_source_id: string;
  to_source_id: string;
  from: EntityRef;
  to: EntityRef;
  first_seen_at: string;
}

export interface ChangeView {
  change: 'added' | 'removed' | 'changed';
  kind: string;
  entity_id: string;
  source_id: string;
  display_name: string;
  to_entity_id?: string;
  to_source_id?: string;
  from?: EntityRef;
  to?: EntityRef;
  changed_attributes?: { attribute: string; before: string | null; after: string | null }[];
}

const latest = (...times: (string | undefined)[]) => times.filter((t): t is string => Boolean(t)).sort().at(-1)!;

/**
 * Entities of each kind (kinds in catalogue order) by name, case-insensitive, ties by entity id;
 * with `q`, kind by kind the name matches, then the source-id matches.
 *
 * An entity was last seen by the latest run that read its track to the end (the inventory's
 * meta item) or, when later, by the run that added or changed it: an unchanged entity is
 * never rewritten just to move a timestamp.
 */
export async function listEntities(deps: Deps, scope: WorkspaceScope, connectionId: string, query: PageRequest & { kind?: string | undefined; q?: string | undefined }): Promise<Page<EntityView>> {
  await getConnection(deps, scope, connectionId);
  const { tenantId: t, workspaceId: w } = scope;
  const kinds = query.kind ? [query.kind] : entityKinds;
  const segments = query.q
    ? entitySearchSegments(deps, { ...scope, connectionId }, query.q, kinds)
    : ((await entityNameOrderSegments(deps, { ...scope, connectionId }, kinds)) ??
      INVENTORY_SHARDS.map((shard) => ({
        key: shard,
        read: (request: PageRequest) => deps.table.queryPrefix<InventoryEntityRecord>(keys.inventoryEntities(t, w, connectionId, shard, query.kind), request, { newestFirst: false }),
      })));
  const [page, meta] = await Promise.all([
    pageAcross(segments, query),
    deps.table.get<Record<string, string>>(keys.inventoryMeta(t, w, connectionId)),
  ]);
  return { items: page.items.map((e) => toEntityView(e, meta)), nextCursor: page.nextCursor };
}

const toEntityView = (e: InventoryEntityRecord, meta: Record<string, string> | undefined): EntityView => ({
  entity_id: e.entity_id,
  kind: e.kind,
  source_id: e.source_id,
  display_name: e.display_name,
  attributes: e.attributes,
  first_seen_at: e.first_seen_at,
  last_seen_at: latest(e.first_seen_at, e.changed_at, meta?.[`${TRACK_SEEN_PREFIX}${e.track}`]),
});

export interface EntityDetailView extends EntityView {
  relationships: { out: NeighbourView[]; in: NeighbourView[]; out_total: number; in_total: number };
}

interface NeighbourView {
  kind: string;
  entity: EntityRef;
}

/** How many relationships each way the entity detail shows (the relationships list pages the rest). */
const DETAIL_NEIGHBOURS = 100;

/** One entity of a connection by id (404 when absent): the id does not say the kind, so one batch read looks under every kind. */
export async function findEntity(deps: Deps, scope: WorkspaceScope, connectionId: string, entityId: string): Promise<InventoryEntityRecord> {
  const found = await deps.table.batchGet(entityKinds.map((kind) => keys.inventoryEntity(scope.tenantId, scope.workspaceId, connectionId, kind, entityId)));
  const record = found[0] as unknown as InventoryEntityRecord | undefined;
  if (!record) throw new NotFoundError('entity');
  return record;
}

/**
 * One entity with its first relationships each way, the other end named, and how many there
 * are. A total is counted (by DynamoDB, nothing held) only when there are more than the detail
 * shows.
 */
export async function getEntityDetail(deps: Deps, scope: WorkspaceScope, connectionId: string, entityId: string): Promise<EntityDetailView> {
  await getConnection(deps, scope, connectionId);
  const { tenantId: t, workspaceId: w } = scope;
  const [record, meta] = await Promise.all([
    findEntity(deps, scope, connectionId, entityId),
    deps.table.get<Record<string, string>>(keys.inventoryMeta(t, w, connectionId)),
  ]);
  const outKinds = relationshipKinds.filter((kind) => relationshipEnds[kind].from === record.kind);
  const outgoing = outKinds.map((kind) => (request: PageRequest) =>
    deps.table.queryPrefix<InventoryRelationshipRecord>(keys.inventoryRelationshipsFrom(t, w, connectionId, kind, entityId), request, { newestFirst: false }),
  );
  const to = keys.inventoryRelationshipsTo(t, w, connectionId, entityId);
  const [outPage, inPage] = await Promise.all([
    pageAcross(fixedSegments(outgoing), { limit: DETAIL_NEIGHBOURS }),
    deps.table.queryIndexPrefix<InventoryRelationshipRecord>('GSI1', to.GSI1PK, to.GSI1SKPrefix, { limit: DETAIL_NEIGHBOURS }, { newestFirst: false }),
  ]);
  const outEnds = outPage.items.map((r) => endsOf(r.kind, { entity_id: r.from_entity_id, source_id: r.from_source_id }, { entity_id: r.to_entity_id, source_id: r.to_source_id }).to);
  const inEnds = inPage.items.map((r) => endsOf(r.kind, { entity_id: r.from_entity_id, source_id: r.from_source_id }, { entity_id: r.to_entity_id, source_id: r.to_source_id }).from);
  const [refs, outTotal, inTotal] = await Promise.all([
    entityRefs(deps, { ...scope, connectionId }, [...outEnds, ...inEnds]),
    outPage.nextCursor
      ? Promise.all(outKinds.map((kind) => {
          const prefix = keys.inventoryRelationshipsFrom(t, w, connectionId, kind, entityId);
          return deps.table.countPrefix({ partition: prefix.PK, sortPrefix: prefix.SKPrefix });
        })).then((counts) => counts.reduce((a, b) => a + b, 0))
      : Promise.resolve(outPage.items.length),
    inPage.nextCursor ? deps.table.countPrefix({ index: 'GSI1', partition: to.GSI1PK, sortPrefix: to.GSI1SKPrefix }) : Promise.resolve(inPage.items.length),
  ]);
  return {
    ...toEntityView(record, meta),
    relationships: {
      out: outPage.items.map((r, i) => ({ kind: r.kind, entity: refs.get(outEnds[i]!.entity_id)! })),
      in: inPage.items.map((r, i) => ({ kind: r.kind, entity: refs.get(inEnds[i]!.entity_id)! })),
      out_total: outTotal,
      in_total: inTotal,
    },
  };
}

/** A page of relationships as views, both ends named in one batch read for the page. */
async function toRelationshipViews(deps: Deps, scope: WorkspaceScope, connectionId: string, records: readonly InventoryRelationshipRecord[]): Promise<RelationshipView[]> {
  const ends = records.map((r) => endsOf(r.kind, { entity_id: r.from_entity_id, source_id: r.from_source_id }, { entity_id: r.to_entity_id, source_id: r.to_source_id }));
  const refs = await entityRefs(deps, { ...scope, connectionId }, ends.flatMap((e) => [e.from, e.to]));
  return records.map((r, i) => ({
    kind: r.kind,
    from_entity_id: r.from_entity_id,
    to_entity_id: r.to_entity_id,
    from_source_id: r.from_source_id,
    to_source_id: r.to_source_id,
    from: refs.get(ends[i]!.from.entity_id)!,
    to: refs.get(ends[i]!.to.entity_id)!,
    first_seen_at: r.first_seen_at,
  }));
}

/**
 * Relationships, optionally of one kind, optionally touching one entity. Without `entity_id`
 * the list walks the inventory's shards; with it, the entity's outgoing relationships kind by
 * kind (main index), then its incoming ones (GSI1). The cursor says which segment it is in.
 */
export async function listRelationships(
  deps: Deps,
  scope: WorkspaceScope,
  connectionId: string,
  query: PageRequest & { kind?: string | undefined; entity_id?: string | undefined },
): Promise<Page<RelationshipView>> {
  await getConnection(deps, scope, connectionId);
  const { tenantId: t, workspaceId: w } = scope;
  if (!query.entity_id) {
    const shards = INVENTORY_SHARDS.map((shard) => (request: PageRequest) =>
      deps.table.queryPrefix<InventoryRelationshipRecord>(keys.inventoryRelationships(t, w, connectionId, shard, query.kind), request, { newestFirst: false }),
    );
    const page = await pageAcross(fixedSegments(shards), query);
    return { items: await toRelationshipViews(deps, scope, connectionId, page.items), nextCursor: page.nextCursor };
  }
  const entityId = query.entity_id;
  const kinds = query.kind ? [query.kind] : [...relationshipKinds];
  const outgoing = kinds.map((kind) => (request: PageRequest) =>
    deps.table.queryPrefix<InventoryRelationshipRecord>(keys.inventoryRelationshipsFrom(t, w, connectionId, kind, entityId), request, { newestFirst: false }),
  );
  const incoming = (request: PageRequest) => {
    const to = keys.inventoryRelationshipsTo(t, w, connectionId, entityId, query.kind);
    return deps.table.queryIndexPrefix<InventoryRelationshipRecord>('GSI1', to.GSI1PK, to.GSI1SKPrefix, request, { newestFirst: false });
  };
  const page = await pageAcross(fixedSegments([...outgoing, incoming]), query);
  return { items: await toRelationshipViews(deps, scope, connectionId, page.items), nextCursor: page.nextCursor };
}

/** What a change entry points at: the entity, or a relationship's two ends. */
function pointersOf(entry: ChangeEntry): EntityPointer[] {
  if (entry.length === 6) {
    const { from, to } = endsOf(entry[1], { entity_id: entry[2], source_id: entry[3] }, { entity_id: entry[4], source_id: entry[5] });
    return [from, to];
  }
  return [{ kind: entry[1], entity_id: entry[2], source_id: entry[3] }];
}

/** A page of change entries as views, every entity named in one batch read for the page. */
async function toChangeViews(deps: Deps, scope: WorkspaceScope, connectionId: string, entries: readonly ChangeEntry[]): Promise<ChangeView[]> {
  const refs = await entityRefs(deps, { ...scope, connectionId }, entries.flatMap(pointersOf));
  return entries.map((entry) => {
    if (entry.length === 6) {
      const [change, kind, fromId, fromSource, toId, toSource] = entry;
      const from = refs.get(fromId)!;
      return { change, kind, entity_id: fromId, source_id: fromSource, display_name: from.display_name, to_entity_id: toId, to_source_id: toSource, from, to: refs.get(toId)! };
    }
    const [change, kind, entityId, sourceId] = entry;
    const view: ChangeView = { change, kind, entity_id: entityId, source_id: sourceId, display_name: refs.get(entityId)!.display_name };
    if (entry.length === 5) view.changed_attributes = entry[4].map(([attribute, before, after]) => ({ attribute, before, after }));
    return view;
  });
}

/**
 * A run's changes in the order its steps found them. The cursor names the stored part and the
 * position in it (parts hold thousands of entries, pages at most 100).
 */
export async function listRunChanges(deps: Deps, scope: WorkspaceScope, connectionId: string, runId: string, query: PageRequest): Promise<Page<ChangeView>> {
  const page = await runChangeEntries(deps, scope, connectionId, runId, query);
  return { items: await toChangeViews(deps, scope, connectionId, page.items), nextCursor: page.nextCursor };
}

async function runChangeEntries(deps: Deps, scope: WorkspaceScope, connectionId: string, runId: string, query: PageRequest): Promise<Page<ChangeEntry>> {
  await getConnection(deps, scope, connectionId);
  await getRun(deps, scope, connectionId, runId);
  const prefix = keys.runChanges(scope.tenantId, scope.workspaceId, connectionId, runId);
  const position = decodeChangeCursor(query.cursor, prefix.SKPrefix);
  const items: ChangeEntry[] = [];
  let startKey: Record<string, unknown> | undefined;
  if (position) {
    const part = await deps.table.get<{ entries: ChangeEntry[] }>({ PK: prefix.PK, SK: position.sk });
    const entries = part?.entries ?? [];
    const taken = entries.slice(position.offset, position.offset + query.limit);
    items.push(...taken);
    if (position.offset + taken.length < entries.length) return { items, nextCursor: encodeChangeCursor(position.sk, position.offset + taken.length) };
    startKey = { PK: prefix.PK, SK: position.sk };
  }
  for (;;) {
    const page = await deps.table.queryRaw(prefix, { startKey, limit: 10 });
    for (const [index, item] of page.items.entries()) {
      const entries = (item.entries as ChangeEntry[] | undefined) ?? [];
      const taken = entries.slice(0, query.limit - items.length);
      items.push(...taken);
      if (taken.length < entries.length) return { items, nextCursor: encodeChangeCursor(item.SK as string, taken.length) };
      if (items.length >= query.limit) {
        const more = index < page.items.length - 1 || page.lastKey !== undefined;
        return { items, nextCursor: more ? encodeChangeCursor(item.SK as string, entries.length) : null };
      }
    }
    if (!page.lastKey) return { items, nextCursor: null };
    startKey = page.lastKey;
  }
}

function encodeChangeCursor(sk: string, offset: number): string {
  return encodeJsonCursor({ sk, i: offset });
}

function decodeChangeCursor(cursor: string | undefined, skPrefix: string): { sk: string; offset: number } | undefined {
  if (!cursor) return undefined;
  const value = decodeJsonCursor(cursor, (v): v is { sk: string; i: number } => typeof v.sk === 'string' && v.sk.startsWith(skPrefix) && Number.isInteger(v.i) && (v.i as number) >= 0);
  return { sk: value.sk, offset: value.i };
}
