/**
 * What a person can reach, and who can reach an entity, walked on read over the inventories'
 * adjacency: a person's Principals → their accounts (`principal_represents_account`) → the
 * entitlements the accounts hold (`account_assigned_entitlement`) → the resources those grant
 * (`entitlement_grants_resource`). No connector emits entitlement-to-entitlement nesting with
 * these kinds (AWS gives a group's member the group's policies directly; Entra memberships are
 * transitive already), so a path has at most three hops.
 *
 * A read costs a few queries per hop, in parallel across the hop's entities, and holds one
 * person's reach (or one page of an entity's holders): nothing grows with the inventory.
 */
import type { Deps } from '../deps';
import { NotFoundError, ValidationError } from '../errors';
import { getConnection } from '../connections/connection-records';
import { entityKinds } from '../connectors/discovery';
import type { WorkspaceScope } from '../identity/principal';
import { keys } from '../store/keys';
import type { Page, PageRequest } from '../store/table-client';
import { incoming, incomingPage, outgoing, refsOf, type EntityRef, type Neighbour } from './inventory-adjacency';
import { runWithConcurrency } from '../bounded-concurrency';
import { accountIdsOf } from './people-views';
import { personIdOf, personKey, type PersonRecord } from './people-records';

/** Paths listed per target (API.md). */
export const MAX_PATHS = 20;

export interface PersonAccessItem {
  connection_id: string;
  target: EntityRef;
  paths: EntityRef[][];
}

interface Hop {
  entity_id: string;
  kind: string;
  source_id: string;
}

interface Reach {
  connectionId: string;
  target: Hop;
  paths: Hop[][];
}

const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export async function personAccess(
  deps: Deps,
  scope: WorkspaceScope,
  record: PersonRecord,
  query: PageRequest & { connection_id?: string | undefined; kind?: 'Entitlement' | 'Resource' | undefined },
): Promise<Page<PersonAccessItem>> {
  const connections = Object.keys(record.members).filter((c) => !query.connection_id || c === query.connection_id);
  const walked = await Promise.all(connections.map((connectionId) => reachOf(deps, { ...scope, connectionId }, record, query.kind)));
  const ordered = walked
    .flatMap((w) => w.reached)
    .filter((r) => !query.kind || r.target.kind === query.kind)
    .map((r) => ({ ...r, position: `${r.connectionId}#${r.target.entity_id}` }))
    .filter((r) => !query.cursor || r.position > query.cursor)
    .sort((a, b) => byKey(a.position, b.position));
  const page = ordered.slice(0, query.limit);
  const named = new Map(walked.map((w, i) => [connections[i]!, w.named]));
  const items = await Promise.all(
    groupByConnection(page).map(async ([connectionId, reaches]) => {
      const known = named.get(connectionId)!;
      // Names not read along the walk: the page's resources (and hops of a large reach).
      const refs = await refsOf(deps, { ...scope, connectionId }, reaches.flatMap((r) => [r.target, ...r.paths.flat()]).filter((hop) => !known.has(hop.entity_id)));
      const nameOf = (hop: Hop) => known.get(hop.entity_id) ?? refs.get(hop.entity_id)!;
      return reaches.map((r) => ({ connection_id: connectionId, target: nameOf(r.target), paths: r.paths.map((path) => path.map(nameOf)) }));
    }),
  );
  const byPosition = new Map(items.flat().map((item) => [`${item.connection_id}#${item.target.entity_id}`, item]));
  return { items: page.map((r) => byPosition.get(r.position)!), nextCursor: ordered.length > query.limit ? page.at(-1)!.position : null };
}

function groupByConnection<T extends { connectionId: string }>(items: readonly T[]): [string, T[]][] {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(item.connectionId, [...(groups.get(item.connectionId) ?? []), item]);
  return [...groups];
}

/** Hop queries of one walk in flight at once: a person with thousands of accounts walks them in turn. */
const QUERIES_AT_ONCE = 16;
/** Up to this many accounts, and as many entitlements, are named along the walk (beside the last hop's queries). */
const NAMED_ALONG = 100;

async function mapWithConcurrency<T, R>(items: readonly T[], run: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  const indexes = items.map((_, i) => i);
  await runWithConcurrency(indexes, QUERIES_AT_ONCE, async (i) => {
    out[i] = await run(items[i]!);
  });
  return out;
}

/**
 * Every entitlement and resource one connection's accounts of the person reach, with up to
 * MAX_PATHS paths each. Each hop is one round of queries in parallel; the accounts' and
 * entitlements' names are read beside the last hop's queries, so naming adds no round trip but
 * the resources' own.
 */
async function reachOf(deps: Deps, scope: WorkspaceScope & { connectionId: string }, record: PersonRecord, kind: 'Entitlement' | 'Resource' | undefined): Promise<{ reached: Reach[]; named: Map<string, EntityRef> }> {
  const targets = new Map<string, Reach>();
  const reach = (target: Hop, path: Hop[]) => {
    let entry = targets.get(target.entity_id);
    if (!entry) targets.set(target.entity_id, (entry = { connectionId: scope.connectionId, target, paths: [] }));
    if (entry.paths.length < MAX_PATHS) entry.paths.push(path);
  };
  const accounts = await accountIdsOf(deps, scope, record, scope.connectionId);
  const holdings = await mapWithConcurrency(accounts, async (account) => ({ account, entitlements: await outgoing(deps, scope, 'account_assigned_entitlement', account.entity_id) }));
  const entitlements = [...new Map(holdings.flatMap((h) => h.entitlements.map((e) => [e.entity_id, e] as const))).values()];
  // The accounts and entitlements are named in one batch read beside the last hop's queries:
  // on DynamoDB Local calls in flight are served nearly one at a time, so a call saved is time saved.
  const along = [...(accounts.length <= NAMED_ALONG ? accounts.map((a) => ({ ...a, kind: 'Account' })) : []), ...(entitlements.length <= NAMED_ALONG ? entitlements.map((e) => ({ ...e, kind: 'Entitlement' })) : [])];
  const [grantLists, named] = await Promise.all([
    // Only resources need the last hop.
    kind === 'Entitlement' ? [] : mapWithConcurrency(entitlements, (e) => outgoing(deps, scope, 'entitlement_grants_resource', e.entity_id)),
    refsOf(deps, scope, along),
  ]);
  const grants = new Map(grantLists.map((list, i) => [entitlements[i]!.entity_id, list]));
  for (const { account, entitlements: held } of holdings) {
    const accountHop: Hop = { entity_id: account.entity_id, kind: 'Account', source_id: account.source_id };
    for (const e of held) {
      const entitlementHop: Hop = { ...e, kind: 'Entitlement' };
      reach(entitlementHop, [accountHop, entitlementHop]);
      for (const r of grants.get(e.entity_id) ?? []) {
        const resourceHop: Hop = { ...r, kind: 'Resource' };
        reach(resourceHop, [accountHop, entitlementHop, resourceHop]);
      }
    }
  }
  return { reached: [...targets.values()], named };
}

export interface EntityAccessItem {
  person: { person_id: string; display_name: string };
  account: EntityRef;
  paths: EntityRef[][];
}

interface HoldersCursor {
  s: number;
  c: string | null;
}

function decodeHoldersCursor(cursor: string | undefined, segments: number): HoldersCursor {
  if (!cursor) return { s: 0, c: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(cursor);
  } catch {
    parsed = undefined;
  }
  const value = parsed as Partial<HoldersCursor> | undefined;
  if (!value || !Number.isInteger(value.s) || value.s! < 0 || value.s! >= segments || (value.c !== null && typeof value.c !== 'string')) {
    throw new ValidationError([{ path: 'cursor', message: 'is not a cursor of this list' }]);
  }
  return { s: value.s!, c: value.c ?? null };
}

/**
 * Who reaches an entity: one item per (person, account). Pages walk the entitlements that lead
 * to the entity in id order, and each one's holders in turn; an account that holds several of
 * them is listed once, at the first (so a page needs no memory of earlier pages).
 */
export async function entityAccess(deps: Deps, scope: WorkspaceScope, connectionId: string, entityId: string, query: PageRequest): Promise<Page<EntityAccessItem>> {
  await getConnection(deps, scope, connectionId);
  const inConnection = { ...scope, connectionId };
  const found = await deps.table.batchGet(entityKinds.map((kind) => keys.inventoryEntity(scope.tenantId, scope.workspaceId, connectionId, kind, entityId)), { projection: ['entity_id', 'kind', 'source_id', 'display_name'] });
  const target = found[0] as unknown as EntityRef | undefined;
  if (!target) throw new NotFoundError('entity');
  if (target.kind !== 'Resource' && target.kind !== 'Entitlement') return { items: [], nextCursor: null };

  const entitlements: Neighbour[] = target.kind === 'Resource' ? await incoming(deps, inConnection, 'entitlement_grants_resource', entityId) : [{ entity_id: target.entity_id, source_id: target.source_id }];
  const leading = new Set(entitlements.map((e) => e.entity_id));
  let { s: segment, c: inner } = decodeHoldersCursor(query.cursor, Math.max(1, entitlements.length));
  let items: EntityAccessItem[] = [];
  while (segment < entitlements.length && items.length < query.limit) {
    const entitlement = entitlements[segment]!;
    const page = await incomingPage(deps, inConnection, 'account_assigned_entitlement', entitlement.entity_id, { limit: query.limit - items.length, cursor: inner ?? undefined });
    const found = await Promise.all(
      page.items.map(async (account) => {
        const accountHop: Hop = { ...account, kind: 'Account' };
        if (target.kind === 'Entitlement') return { account, paths: [[accountHop, { ...target }]] };
        const held = (await outgoing(deps, inConnection, 'account_assigned_entitlement', account.entity_id)).filter((e) => leading.has(e.entity_id)).sort((a, b) => byKey(a.entity_id, b.entity_id));
        // Listed at its first leading entitlement only.
        if (held[0]?.entity_id !== entitlement.entity_id) return undefined;
        return { account, paths: held.slice(0, MAX_PATHS).map((e) => [accountHop, { ...e, kind: 'Entitlement' }, { ...target }]) };
      }),
    );
    const reached = found.filter((h): h is NonNullable<typeof h> => h !== undefined);
    items = items.concat(await holderItems(deps, inConnection, reached));
    if (page.nextCursor) inner = page.nextCursor;
    else {
      segment += 1;
      inner = null;
    }
  }
  return { items, nextCursor: segment < entitlements.length ? JSON.stringify({ s: segment, c: inner }) : null };
}

/** The people behind holder accounts (an account without a Principal, such as an AWS role, has none and is left out). */
async function holderItems(deps: Deps, scope: WorkspaceScope & { connectionId: string }, holders: { account: Neighbour; paths: Hop[][] }[]): Promise<EntityAccessItem[]> {
  if (holders.length === 0) return [];
  const withPrincipals = await Promise.all(holders.map(async (h) => ({ ...h, principals: await incoming(deps, scope, 'principal_represents_account', h.account.entity_id) })));
  const personIds = new Set(withPrincipals.flatMap((h) => h.principals.map((p) => personIdOf(scope, scope.connectionId, p.entity_id, p.source_id))));
  const [found, refs] = await Promise.all([
    personIds.size > 0 ? deps.table.batchGet([...personIds].map((id) => personKey(scope, id)), { projection: ['person_id', 'display_name'] }) : [],
    refsOf(deps, scope, withPrincipals.flatMap((h) => h.paths.flat())),
  ]);
  const people = new Map(found.map((item) => [item.person_id as string, item as unknown as PersonRecord]));
  return withPrincipals.flatMap((h) =>
    h.principals.map((p) => {
      const personId = personIdOf(scope, scope.connectionId, p.entity_id, p.source_id);
      return {
        person: { person_id: personId, display_name: people.get(personId)?.display_name ?? p.source_id },
        account: refs.get(h.account.entity_id)!,
        paths: h.paths.map((path) => path.map((hop) => refs.get(hop.entity_id)!)),
      };
    }),
  );
}
