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
import type { Page, PageRequest } from '../store/table-client';
import { outgoing, refsOf, type EntityRef } from './inventory-adjacency';
import { personKey, searchKeyOf, viewOf, type PersonRecord, type PersonView } from './people-records';

/** Above every character DynamoDB orders (UTF-8 byte order): the end of a prefix range. */
const HIGHEST = '\u{10FFFF}';
const SORT_SEPARATOR = '\u0001';
const sortKeyOf = (p: Pick<PersonRecord, 'name_key' | 'person_id'>) => `${p.name_key}${SORT_SEPARATOR}${p.person_id}`;
/** Ordinal order, as DynamoDB orders keys (UTF-16 and UTF-8 agree outside the astral planes). */
const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export async function listPeople(deps: Deps, scope: WorkspaceScope, query: PageRequest & { q?: string | undefined }): Promise<Page<PersonView>> {
  const { tenantId: t, workspaceId: w } = scope;
  const after = query.cursor;
  const prefix = query.q ? searchKeyOf(query.q) : '';
  const wanted = query.limit + 1;

  // By display name: one range of GSI1, from just after the cursor.
  const byName: PersonRecord[] = [];
  let startKey: Record<string, unknown> | undefined;
  // A cursor past the name range (the last page ended on a person found by email) leaves it done.
  let nameRangeDone = false;
  if (after && after >= prefix) {
    if (!after.startsWith(prefix)) nameRangeDone = true;
    const separator = after.lastIndexOf(SORT_SEPARATOR);
    if (separator < 0) throw new ValidationError([{ path: 'cursor', message: 'is not a cursor of this list' }]);
    const personId = after.slice(separator + 1);
    startKey = { ...personKey(scope, personId), ...keys.personByName(t, w, after.slice(0, separator), personId) };
  }
  while (!nameRangeDone && byName.length < wanted) {
    const page = await deps.table.queryRange({ index: 'GSI1', partition: keys.peopleByName(t, w).GSI1PK, from: prefix || SORT_SEPARATOR, to: `${prefix}${HIGHEST}`, limit: wanted - byName.length, startKey });
    byName.push(...(page.items as unknown as PersonRecord[]));
    startKey = page.lastKey;
    if (!startKey) break;
  }

  // By email, where the email is not the display name: few, read whole, kept only past the cursor.
  const byEmail = prefix ? await peopleByEmailOnly(deps, scope, prefix, after) : [];
  const merged = new Map<string, PersonRecord>();
  for (const person of [...byName, ...byEmail]) merged.set(person.person_id, person);
  const ordered = [...merged.values()].sort((a, b) => byKey(sortKeyOf(a), sortKeyOf(b)));
  const page = ordered.slice(0, query.limit);
  return { items: page.map(viewOf), nextCursor: ordered.length > query.limit ? sortKeyOf(page.at(-1)!) : null };
}

async function peopleByEmailOnly(deps: Deps, scope: WorkspaceScope, prefix: string, after: string | undefined): Promise<PersonRecord[]> {
  const ids: string[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await deps.table.queryRaw(keys.peopleByEmail(scope.tenantId, scope.workspaceId, prefix), { startKey, projection: ['person_id'] });
    ids.push(...page.items.map((item) => item.person_id as string));
    startKey = page.lastKey;
  } while (startKey);
  if (ids.length === 0) return [];
  const found = (await deps.table.batchGet(ids.map((id) => personKey(scope, id)))) as unknown as PersonRecord[];
  // A person whose name matches too is in the name range already.
  return found.filter((p) => !p.name_key.startsWith(prefix) && (!after || sortKeyOf(p) > after));
}

export interface PersonDetail {
  person_id: string;
  display_name: string;
  emails: string[];
  accounts: (EntityRef & { connection_id: string })[];
}

export async function getPersonRecord(deps: Deps, scope: WorkspaceScope, personId: string): Promise<PersonRecord> {
  const record = await deps.table.get<PersonRecord>(personKey(scope, personId));
  if (!record) throw new NotFoundError('person');
  return record;
}

/** The accounts of a person's Principals, connection by connection. */
export async function accountsOf(deps: Deps, scope: WorkspaceScope, record: PersonRecord, connectionId?: string): Promise<{ connectionId: string; accounts: EntityRef[] }[]> {
  const connections = Object.keys(record.members).sort().filter((c) => !connectionId || c === connectionId);
  return Promise.all(
    connections.map(async (c) => {
      const inConnection = { ...scope, connectionId: c };
      const accounts = await outgoing(deps, inConnection, 'principal_represents_account', record.members[c]!.principal_id);
      const refs = await refsOf(deps, inConnection, accounts.map((a) => ({ ...a, kind: 'Account' })));
      return { connectionId: c, accounts: accounts.map((a) => refs.get(a.entity_id)!) };
    }),
  );
}

export async function getPerson(deps: Deps, scope: WorkspaceScope, personId: string): Promise<PersonDetail> {
  const record = await getPersonRecord(deps, scope, personId);
  const view = viewOf(record);
  const byConnection = await accountsOf(deps, scope, record);
  return {
    person_id: view.person_id,
    display_name: view.display_name,
    emails: view.emails,
    accounts: byConnection.flatMap(({ connectionId, accounts }) => accounts.map((a) => ({ ...a, connection_id: connectionId }))),
  };
}
