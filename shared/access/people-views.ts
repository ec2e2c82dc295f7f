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
/** Read rounds of one page of a search: a page whose matches are sparse comes back short, with a cursor. */
const SEARCH_ROUNDS = 4;
/** Sorts after every sort key: where a stream read to its end. */
const END = PREFIX_END;

type SearchEntry = PersonRecord & { GSI1SK: string; entry?: 'email' };

/** DynamoDB's order of sort keys: UTF-8 bytes (JavaScript's `<` compares UTF-16 units). */
const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
const later = (a: string, b: string) => (byteOrder(a, b) >= 0 ? a : b);
const earlier = (a: string, b: string) => (byteOrder(a, b) <= 0 ? a : b);

/**
 * The people in display-name order (case-insensitive, ties by id), from GSI1: without `q` one
 * range of the person items; with `q` the merge of two streams in that same order, the people
 * whose name starts with it (a range of the person items) and those whose email alone does (the
 * email entries of the email's first character, filtered). A cursor is the sort key (name and id)
 * up to which both streams were read, so a page resumes both without keeping either's position.
 */
export async function listPeople(deps: Deps, scope: WorkspaceScope, query: PageRequest & { q?: string | undefined }): Promise<Page<PersonView>> {
  const { tenantId: t, workspaceId: w } = scope;
  const prefix = query.q ? searchKeyOf(query.q) : '';
  let after: string | null = null;
  if (query.cursor) {
    if (!query.cursor.includes(SORT_SEPARATOR)) throw new ValidationError([{ path: 'cursor', message: 'is not a cursor of this list' }]);
    after = query.cursor;
  }
  // Sort keys are `<name>\u0001<id>` and names hold no control character: nothing sorts between a key and that key + \u0001.
  const from = () => (after === null ? SORT_SEPARATOR : `${after}${SORT_SEPARATOR}`);
  // Email entries written before they had partitions of their own sat among the person items: never listed twice.
  const peopleOnly = { expression: 'attribute_not_exists(#entry)', names: { '#entry': 'entry' } };
  const readNames = (limit: number) => {
    const start = later(from(), prefix || SORT_SEPARATOR);
    const end = `${prefix}${END}`;
    if (byteOrder(start, end) > 0) return Promise.resolve({ items: [], lastKey: undefined });
    return deps.table.queryRange({ index: 'GSI1', partition: keys.peopleByName(t, w).GSI1PK, from: start, to: end, limit, filter: peopleOnly });
  };
  const readEmails = (limit: number) =>
    deps.table.queryRange({
      index: 'GSI1',
      partition: keys.peopleByEmail(t, w, prefix).GSI1PK,
      from: from(),
      to: END,
      limit,
      filter: { expression: 'begins_with(email_key, :q) AND NOT begins_with(name_key, :q)', values: { ':q': prefix } },
    });

  const found: SearchEntry[] = [];
  let more = true;
  for (let round = 0; round < SEARCH_ROUNDS && more && found.length < query.limit; round++) {
    const want = query.limit - found.length + 1;
    const [names, emails] = await Promise.all([readNames(want), prefix ? readEmails(want) : Promise.resolve({ items: [], lastKey: undefined })]);
    // Both streams are complete up to the sooner of where each stopped reading.
    const reachedOf = (page: { lastKey?: Record<string, unknown> | undefined }) => (page.lastKey ? (page.lastKey.GSI1SK as string) : END);
    const reached = earlier(reachedOf(names), reachedOf(emails));
    const merged = [...names.items, ...emails.items].map((item) => item as unknown as SearchEntry).filter((e) => byteOrder(e.GSI1SK, reached) <= 0).sort((a, b) => byteOrder(a.GSI1SK, b.GSI1SK));
    const taken = merged.slice(0, query.limit - found.length);
    found.push(...taken);
    if (merged.length > taken.length) {
      after = taken.at(-1)!.GSI1SK;
      break;
    }
    more = reached !== END;
    after = reached;
  }
  return { items: found.map(viewOf), nextCursor: more && after !== null ? after : null };
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
