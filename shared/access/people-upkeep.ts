/**
 * Keeps the workspace's people: from one part of a run's change list (a Principal added,
 * changed or removed, accounts linked to or unlinked from a Principal), and when a deleted
 * connection's data is purged (its Principals leave). Work grows with what changed: an
 * unchanged run touches no person. A batch of people is read in batch reads and written in
 * batch writes (25 items a call, several calls at once) under the workspace's people lease
 * (people-lease.ts), which is what makes writes without a condition safe.
 *
 * A person is one item (in GSI1 under its lower-cased display name) plus, where its email
 * differs from that name, an email entry carrying the same members, in GSI1 under the email's
 * first character and ordered by the display name: a search by name or email prefix reads both
 * in display-name order (people-views.ts).
 */
import type { Deps } from '../deps';
import type { WorkspaceScope } from '../identity/principal';
import { keys, type ItemKey } from '../store/keys';
import type { ChangeEntry, InventoryEntityRecord } from '../store/records';
import { PREFIX_END, type StoredItem } from '../store/table-client';
import type { InventoryScope } from '../runs/inventory-writer';
import { withPeopleLease } from './people-lease';
import { emailKeyOfPrincipal, INLINE_ACCOUNTS, personIdOf, personKey, summarize, type PersonMember, type PersonRecord } from './people-records';

/** People per lease: a batch read of 100 keys at a time, and the writes that follow. */
const PEOPLE_PER_BATCH = 1000;
/** Batch writes of one batch of people sent at once (16 calls in flight: twice the throughput of 4 on DynamoDB Local). */
const WRITERS = 4;
/** People swept per page of a purge (each read whole, to be rewritten). */
const PURGE_PAGE = 200;

interface MemberChange {
  personId: string;
  principalId: string;
  principalSourceId: string;
  /** The Principal itself: added or changed (its name and email are read), removed, or untouched. */
  principal?: 'added' | 'changed' | 'removed';
  accountsDelta: number;
  /** The account links of this part, in order: [added?, account id, account provider id]. */
  accountLinks: [boolean, string, string][];
}

/** What to do with one person, given its stored item: its new members, or nothing. */
type PersonRewrite = (personId: string, stored: PersonRecord | undefined, principals: Map<string, InventoryEntityRecord>) => Record<string, PersonMember> | 'unchanged';

/** Applies what one part of the run's changes says about Principals. */
export async function applyPeopleChanges(deps: Deps, scope: InventoryScope, runId: string, part: number, entries: readonly ChangeEntry[]): Promise<void> {
  const byPrincipal = new Map<string, MemberChange>();
  const touch = (principalId: string, sourceId: string) => {
    let change = byPrincipal.get(principalId);
    if (!change) byPrincipal.set(principalId, (change = { personId: personIdOf(scope, scope.connectionId, principalId, sourceId), principalId, principalSourceId: sourceId, accountsDelta: 0, accountLinks: [] }));
    return change;
  };
  for (const entry of entries) {
    if (entry.length !== 6 && entry[1] === 'Principal') touch(entry[2], entry[3]).principal = entry[0];
    else if (entry.length === 6 && entry[1] === 'principal_represents_account') {
      const change = touch(entry[2], entry[3]);
      change.accountsDelta += entry[0] === 'added' ? 1 : -1;
      change.accountLinks.push([entry[0] === 'added', entry[4], entry[5]]);
    }
  }
  if (byPrincipal.size === 0) return;

  const { tenantId: t, workspaceId: w, connectionId: c } = scope;
  const byPerson = new Map<string, MemberChange>();
  for (const change of byPrincipal.values()) byPerson.set(change.personId, change);
  const ids = [...byPerson.keys()];
  for (let i = 0; i < ids.length; i += PEOPLE_PER_BATCH) {
    const batch = ids.slice(i, i + PEOPLE_PER_BATCH).map((id) => byPerson.get(id)!);
    // The Principals' names and emails are read beside the people (under the lease).
    const read = batch.filter((m) => m.principal === 'added' || m.principal === 'changed');
    const principals = read.length === 0 ? Promise.resolve([]) : deps.table.batchGet(read.map((m) => keys.inventoryEntity(t, w, c, 'Principal', m.principalId)), { projection: ['entity_id', 'display_name', 'attributes'] });
    await rewritePeople(deps, scope, batch.map((m) => m.personId), principals, (personId, stored, found) => {
      const change = byPerson.get(personId)!;
      return nextMembers(scope.connectionId, runId, part, change, found.get(change.principalId), stored);
    });
  }
}

function nextMembers(connectionId: string, runId: string, part: number, change: MemberChange, principal: InventoryEntityRecord | undefined, stored: PersonRecord | undefined): Record<string, PersonMember> | 'unchanged' {
  const members = { ...(stored?.members ?? {}) };
  const existing = members[connectionId];
  if (existing && existing.run === runId && existing.part >= part) return 'unchanged'; // applied by an earlier attempt
  if (change.principal === 'removed') {
    delete members[connectionId];
    return members;
  }
  const email = typeof principal?.attributes?.email === 'string' ? principal.attributes.email : emailKeyOfPrincipal(change.principalSourceId);
  // A Principal this run added had no account before it; any other member's accounts are known only if kept inline.
  let accountIds: [string, string][] | null | undefined = existing ? existing.account_ids : change.principal === 'added' ? [] : undefined;
  for (const [added, id, sourceId] of change.accountLinks) {
    if (!accountIds) break;
    accountIds = added ? [...accountIds.filter(([a]) => a !== id), [id, sourceId]] : accountIds.filter(([a]) => a !== id);
    if (accountIds.length > INLINE_ACCOUNTS) accountIds = null;
  }
  members[connectionId] = {
    principal_id: change.principalId,
    principal_source_id: change.principalSourceId,
    display_name: principal?.display_name ?? existing?.display_name ?? change.principalSourceId,
    email: principal ? email : (existing?.email ?? email),
    accounts: Math.max(0, (existing?.accounts ?? 0) + change.accountsDelta),
    ...(accountIds !== undefined ? { account_ids: accountIds } : {}),
    run: runId,
    part,
  };
  return members;
}

/**
 * A deleted connection's Principals leave the workspace's people: a person goes with its last
 * Principal, one with Principals in other connections stays with what those give it. Sweeps the
 * people partition a page at a time (a filter keeps only the connection's people), so a second
 * pass also finds what a run step still finishing at the deletion wrote late.
 */
export async function removeConnectionFromPeople(deps: Deps, scope: WorkspaceScope, connectionId: string, deadlineMs: number): Promise<'done' | 'unfinished'> {
  const people = keys.people(scope.tenantId, scope.workspaceId);
  let startKey: Record<string, unknown> | undefined;
  do {
    if (Date.now() > deadlineMs) return 'unfinished';
    const page = await deps.table.queryRange({
      partition: people.PK,
      from: people.SKPrefix,
      to: `${people.SKPrefix}${PREFIX_END}`,
      limit: PURGE_PAGE,
      startKey,
      filter: { expression: 'attribute_exists(members.#connection)', names: { '#connection': connectionId } },
    });
    const ids = page.items.map((item) => item.person_id as string);
    if (ids.length > 0) {
      await rewritePeople(deps, scope, ids, Promise.resolve([]), (_, stored) => {
        if (!stored?.members[connectionId]) return 'unchanged';
        const members = { ...stored.members };
        delete members[connectionId];
        return members;
      });
    }
    startKey = page.lastKey;
  } while (startKey);
  return 'done';
}

/** Reads a batch of people and writes what `rewrite` makes of each, under the people lease. */
async function rewritePeople(deps: Deps, scope: WorkspaceScope, personIds: readonly string[], principalsRead: Promise<StoredItem[]>, rewrite: PersonRewrite): Promise<void> {
  // Awaited under the lease; a failure while waiting for it is reported there, not unhandled.
  principalsRead.catch(() => undefined);
  await withPeopleLease(deps, scope, async () => {
    const [people, principalItems] = await Promise.all([deps.table.batchGet(personIds.map((id) => personKey(scope, id)), { consistent: true }), principalsRead]);
    const stored = new Map(people.map((item) => [item.person_id as string, item as unknown as PersonRecord]));
    const principals = new Map(principalItems.map((item) => [item.entity_id as string, item as unknown as InventoryEntityRecord]));
    const puts: StoredItem[] = [];
    const deletes: ItemKey[] = [];
    for (const personId of personIds) {
      const before = stored.get(personId);
      const members = rewrite(personId, before, principals);
      if (members === 'unchanged') continue;
      const items = personItems(scope, personId, before, members);
      puts.push(...items.puts);
      deletes.push(...items.deletes);
    }
    // Several batch writes at once (each sends up to BATCH_CONCURRENCY calls of 25): one caller's
    // wait between calls, not the table, is what bounds a first run's thousands of new people.
    const writes: [StoredItem[], ItemKey[]][] = [];
    const share = Math.ceil((puts.length + deletes.length) / WRITERS);
    for (let i = 0; i < puts.length; i += share) writes.push([puts.slice(i, i + share), []]);
    for (let i = 0; i < deletes.length; i += share) writes.push([[], deletes.slice(i, i + share)]);
    await Promise.all(writes.map(([p, d]) => deps.table.batchWrite(p, d)));
  });
}

/** The items of a person with these members (none: the person goes), and the items of its stored state that go. */
function personItems(scope: WorkspaceScope, personId: string, stored: PersonRecord | undefined, members: Record<string, PersonMember>): { puts: StoredItem[]; deletes: ItemKey[] } {
  const { tenantId: t, workspaceId: w } = scope;
  const key = personKey(scope, personId);
  const oldEmail = stored && stored.email_key && stored.email_key !== stored.name_key ? keys.personEmail(t, w, stored.email_key, personId) : undefined;
  if (Object.keys(members).length === 0) return { puts: [], deletes: stored ? [key, ...(oldEmail ? [oldEmail] : [])] : [] };
  const summary = summarize(members);
  const emailKey = Object.values(members).map((m) => (m.email ? m.email.toLowerCase() : null)).find((e) => e !== null) ?? null;
  const record: PersonRecord = { person_id: personId, ...summary, email_key: emailKey, members, version: (stored?.version ?? 0) + 1 };
  const puts: StoredItem[] = [{ ...key, ...keys.personByName(t, w, summary.name_key, personId), ...record }];
  const newEmail = emailKey && emailKey !== summary.name_key ? keys.personEmail(t, w, emailKey, personId) : undefined;
  // The email entry answers a search by itself: it carries the person (its members) as the person item does.
  if (newEmail) puts.push({ ...newEmail, ...keys.personByEmail(t, w, emailKey!, summary.name_key, personId), ...record, entry: 'email' });
  return { puts, deletes: oldEmail && oldEmail.SK !== newEmail?.SK ? [oldEmail] : [] };
}
