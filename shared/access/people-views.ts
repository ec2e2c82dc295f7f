/**
 * The workspace's people (permission `connections:read`): the list in display-name order
 * (case-insensitive, ties by id) from GSI1, a search by name or email prefix, and one person
 * with its accounts. Keys start with the caller's tenant and workspace: no other workspace's
 * person is ever found.
 */
import type { Deps } from '../deps';
import { NotFoundError, ValidationError } from '../errors';
import type { WorkspaceScope } from '../identity/principal';
import { keys } from '../store/keys';
import { PREFIX_END, type ItemRead, type Page, type PageRequest } from '../store/table-client';
import { outgoing, refsOf, type EntityRef, type Neighbour } from './inventory-adjacency';
import { personKey, searchKeyOf, viewOf, type PersonRecord, type PersonView } from './people-records';

const SORT_SEPARATOR = '\u0001';
/** Ends a cursor whose last item was an email entry (`<GSI1SK>` + this). */
const EMAIL_ENTRY_MARK = `${SORT_SEPARATOR}email`;

type SearchEntry = PersonRecord & { GSI1SK: string; entry?: 'email' };

/**
 * The people in one range of GSI1: without `q` the person items in display-name order (the
 * email entries filtered out); with `q` every entry whose name or email starts with it, in the
 * order of what matched (the display name, or the email where only that matches), each person
 * once: at the first of its entries that matches. One query per page (a short page, for people
 * matched twice, reads on).
 */
export async function listPeople(deps: Deps, scope: WorkspaceScope, query: PageRequest & { q?: string | undefined }): Promise<Page<PersonView>> {
  const { tenantId: t, workspaceId: w } = scope;
  const prefix = query.q ? searchKeyOf(query.q) : '';
  let startKey: Record<string, unknown> | undefined;
  if (query.cursor) {
    // An index's start key needs the item's own main key too: the person item's, or its email entry's.
    const fromEmail = query.cursor.endsWith(EMAIL_ENTRY_MARK);
    const sortKey = fromEmail ? query.cursor.slice(0, -EMAIL_ENTRY_MARK.length) : query.cursor;
    const separator = sortKey.lastIndexOf(SORT_SEPARATOR);
    if (separator < 0 || !sortKey.startsWith(prefix)) throw new ValidationError([{ path: 'cursor', message: 'is not a cursor of this list' }]);
    const personId = sortKey.slice(separator + 1);
    const searchKey = sortKey.slice(0, separator);
    const mainKey = fromEmail ? keys.personEmail(t, w, searchKey, personId) : personKey(scope, personId);
    startKey = { ...mainKey, ...keys.personByName(t, w, searchKey, personId) };
  }
  const found: SearchEntry[] = [];
  for (;;) {
    const page = await deps.table.queryRange({
      index: 'GSI1',
      partition: keys.peopleByName(t, w).GSI1PK,
      from: prefix || SORT_SEPARATOR,
      to: `${prefix}${PREFIX_END}`,
      limit: query.limit + 1 - found.length,
      startKey,
      ...(prefix ? {} : { filter: { expression: 'attribute_not_exists(#entry)', names: { '#entry': 'entry' } } }),
    });
    for (const item of page.items as unknown as SearchEntry[]) if (firstMatch(item, prefix)) found.push(item);
    startKey = page.lastKey;
    if (!startKey || found.length > query.limit) break;
  }
  const items = found.slice(0, query.limit);
  const last = items.at(-1);
  return { items: items.map(viewOf), nextCursor: found.length > query.limit && last ? `${last.GSI1SK}${last.entry === 'email' ? EMAIL_ENTRY_MARK : ''}` : null };
}

/** Whether this entry is the first of its person's in the range (a person whose name and email both match is listed once). */
function firstMatch(entry: SearchEntry, prefix: string): boolean {
  if (!prefix) return true;
  const own = entry.entry === 'email' ? entry.email_key! : entry.name_key;
  const other = entry.entry === 'email' ? entry.name_key : entry.email_key;
  return !(other && other !== own && other.startsWith(prefix) && other < own);
}

export interface PersonDetail {
  person_id: string;
  display_name: string;
  emails: string[];
  accounts: (EntityRef & { connection_id: string })[];
}

/** A person by id, as an endpoint reads it ahead with the caller's user record. */
export const personRead = (scope: WorkspaceScope, personId: string): ItemRead<PersonRecord> => ({
  key: personKey(scope, personId),
  found: (item) => {
    if (!item) throw new NotFoundError('person');
    return item as unknown as PersonRecord;
  },
});

export const getPersonRecord = (deps: Deps, scope: WorkspaceScope, personId: string): Promise<PersonRecord> => deps.table.read(personRead(scope, personId));

/** The accounts of a person's Principal in one connection: kept in the person item when few, else read from the inventory. */
export async function accountIdsOf(deps: Deps, scope: WorkspaceScope, record: PersonRecord, connectionId: string): Promise<Neighbour[]> {
  const member = record.members[connectionId]!;
  if (member.account_ids) return member.account_ids.map(([entity_id, source_id]) => ({ entity_id, source_id }));
  return outgoing(deps, { ...scope, connectionId }, 'principal_represents_account', member.principal_id);
}

/** The accounts of a person's Principals, connection by connection, named. */
export async function accountsOf(deps: Deps, scope: WorkspaceScope, record: PersonRecord): Promise<{ connectionId: string; accounts: EntityRef[] }[]> {
  return Promise.all(
    Object.keys(record.members).sort().map(async (c) => {
      const accounts = await accountIdsOf(deps, scope, record, c);
      const refs = await refsOf(deps, { ...scope, connectionId: c }, accounts.map((a) => ({ ...a, kind: 'Account' })));
      return { connectionId: c, accounts: accounts.map((a) => refs.get(a.entity_id)!) };
    }),
  );
}

export async function getPerson(deps: Deps, scope: WorkspaceScope, record: PersonRecord): Promise<PersonDetail> {
  const view = viewOf(record);
  const byConnection = await accountsOf(deps, scope, record);
  return {
    person_id: view.person_id,
    display_name: view.display_name,
    emails: view.emails,
    accounts: byConnection.flatMap(({ connectionId, accounts }) => accounts.map((a) => ({ ...a, connection_id: connectionId }))),
  };
}
