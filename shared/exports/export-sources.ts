/**
 * What each export source reads, page by page, through the very view functions its list route
 * answers from (inventory-views.ts, people-views.ts, access-views.ts, access-change-views.ts,
 * catalog-views.ts), so an exported row is the item of that list, and the item schema the
 * OpenAPI document publishes for it gives the file's columns. A page is read, written and
 * dropped before the next: nothing holds more than one page of a source.
 *
 * Each page comes with the position just after it, small and serializable (list cursors and an
 * index), because an export may take more than one job to write (export-job.ts): the job keeps
 * the position of the last page its file holds durably and the next job reads on from there.
 *
 * `access` rows are a person's access items (GET /v1/people/{id}/access) with the person they
 * belong to in front, `person`, so that every person's access fits one file; with `entity_id`
 * they are the items of GET /v1/connections/{id}/entities/{entity_id}/access. Every person's
 * access resumes from the people page it was in (read again: a person who joined or left
 * between two jobs may shift the index by one, as paging a live list through the API does),
 * the person's index in it, and that person's access cursor.
 */
import * as z from 'zod/mini';
import type { Deps } from '../deps';
import { listAccessChanges } from '../access/access-change-views';
import { AccessChangeListSchema, EntityAccessListSchema, PeopleListSchema, PersonAccessListSchema } from '../access/access-schemas';
import { entityAccess, personAccess } from '../access/access-views';
import { getPersonRecord, listPeople } from '../access/people-views';
import { viewOf } from '../access/people-records';
import { AuditEventListSchema } from '../audit/audit-event-schemas';
import { listAuditEvents } from '../connections/catalog-views';
import { EntityListSchema, RelationshipListSchema } from '../connections/inventory-schemas';
import type { WorkspaceScope } from '../identity/principal';
import { listEntities, listRelationships } from '../runs/inventory-views';
import type { Page } from '../store/table-client';
import type { ExportFilters } from './export-records';
import type { ExportSource } from './export-schemas';

/**
 * Where a reader goes on from: after the last page of a list (`list`), after a page of one of
 * every person's access (`people`), or nowhere, everything read (`end`).
 */
export type SourcePosition =
  | { kind: 'list'; cursor: string }
  | { kind: 'people'; people_cursor: string | null; person: number; access_cursor: string | null }
  | { kind: 'end' };

export interface SourcePage {
  rows: readonly object[];
  /** Where the next page starts: a job that stops after this page resumes there. */
  after: SourcePosition;
}

export interface SourceReader {
  /** The schema of one row: the list item's, as the OpenAPI document publishes it. */
  rowSchema: z.core.$ZodType;
  /** Every row from `from` (the start when absent), a page at a time, in the list's order. */
  pages(from?: SourcePosition): AsyncGenerator<SourcePage>;
}

type PageOf<T> = (cursor: string | undefined) => Promise<Page<T>>;

const END: SourcePosition = { kind: 'end' };

async function* pagesOf<T extends object>(read: PageOf<T>, from: SourcePosition | undefined): AsyncGenerator<SourcePage> {
  if (from?.kind === 'end') return;
  let cursor = from?.kind === 'list' ? from.cursor : undefined;
  do {
    const page = await read(cursor);
    cursor = page.nextCursor ?? undefined;
    if (page.items.length > 0) yield { rows: page.items, after: cursor ? { kind: 'list', cursor } : END };
  } while (cursor);
}

/** The element schema of a list answer's array field (`{entities: [...], next_cursor}` → the entity). */
function itemSchemaOf(listSchema: z.core.$ZodType, field: string): z.core.$ZodType {
  const shape = (listSchema._zod.def as unknown as { shape: Record<string, z.core.$ZodType> }).shape;
  return (shape[field]!._zod.def as unknown as { element: z.core.$ZodType }).element;
}

const PersonNameSchema = z.object({ person_id: z.string(), display_name: z.string() });

const personAccessRowSchema = () => z.extend(z.object({ person: PersonNameSchema }), (itemSchemaOf(PersonAccessListSchema, 'access') as z.ZodMiniObject)._zod.def.shape);

const withPerson = (person: { person_id: string; display_name: string }) => (item: object) => ({ person: { person_id: person.person_id, display_name: person.display_name }, ...item });

export function sourceReader(deps: Deps, scope: WorkspaceScope, source: ExportSource, filters: ExportFilters): SourceReader {
  const limit = deps.config.exportPageSize;
  switch (source) {
    case 'entities':
      return { rowSchema: itemSchemaOf(EntityListSchema, 'entities'), pages: (from) => pagesOf((cursor) => listEntities(deps, scope, filters.connection_id!, { limit, cursor }), from) };
    case 'relationships':
      return { rowSchema: itemSchemaOf(RelationshipListSchema, 'relationships'), pages: (from) => pagesOf((cursor) => listRelationships(deps, scope, filters.connection_id!, { limit, cursor }), from) };
    case 'people':
      return { rowSchema: itemSchemaOf(PeopleListSchema, 'people'), pages: (from) => pagesOf((cursor) => listPeople(deps, scope, { limit, cursor }), from) };
    case 'access_changes':
      return {
        rowSchema: itemSchemaOf(AccessChangeListSchema, 'access_changes'),
        pages: (from) => pagesOf((cursor) => listAccessChanges(deps, scope, { limit, cursor, since: filters.since, until: filters.until, person_id: filters.person_id, connection_id: filters.connection_id }), from),
      };
    case 'audit_events':
      return { rowSchema: itemSchemaOf(AuditEventListSchema, 'audit_events'), pages: (from) => pagesOf((cursor) => listAuditEvents(deps, scope, { limit, cursor, since: filters.since, until: filters.until }), from) };
    case 'access':
      if (filters.entity_id) {
        return { rowSchema: itemSchemaOf(EntityAccessListSchema, 'access'), pages: (from) => pagesOf((cursor) => entityAccess(deps, scope, filters.connection_id!, filters.entity_id!, { limit, cursor }), from) };
      }
      if (filters.person_id) return { rowSchema: personAccessRowSchema(), pages: (from) => accessOfOnePerson(deps, scope, filters.person_id!, filters.connection_id, from) };
      return { rowSchema: personAccessRowSchema(), pages: (from) => accessOfEveryone(deps, scope, filters.connection_id, from) };
  }
}

async function* accessOfOnePerson(deps: Deps, scope: WorkspaceScope, personId: string, connectionId: string | undefined, from: SourcePosition | undefined): AsyncGenerator<SourcePage> {
  const record = await getPersonRecord(deps, scope, personId);
  const named = withPerson(viewOf(record));
  for await (const page of pagesOf((cursor) => personAccess(deps, scope, record, { limit: deps.config.exportPageSize, cursor, connection_id: connectionId }), from)) {
    yield { rows: page.rows.map(named), after: page.after };
  }
}

/** The people in list order, each one's access in turn; a position names the people page, the person in it and their access cursor. */
async function* accessOfEveryone(deps: Deps, scope: WorkspaceScope, connectionId: string | undefined, from: SourcePosition | undefined): AsyncGenerator<SourcePage> {
  if (from?.kind === 'end') return;
  const limit = deps.config.exportPageSize;
  let peopleCursor = from?.kind === 'people' ? from.people_cursor : null;
  let first = from?.kind === 'people' ? from.person : 0;
  let accessCursor = from?.kind === 'people' ? from.access_cursor : null;
  for (;;) {
    const people = await listPeople(deps, scope, { limit, cursor: peopleCursor ?? undefined });
    // Where the person after index `i` begins: the next in this page, or the next page's first.
    const nextPerson = (i: number): SourcePosition =>
      i + 1 < people.items.length ? { kind: 'people', people_cursor: peopleCursor, person: i + 1, access_cursor: null }
        : people.nextCursor ? { kind: 'people', people_cursor: people.nextCursor, person: 0, access_cursor: null } : END;
    for (let i = first; i < people.items.length; i++) {
      const person = people.items[i]!;
      const record = await getPersonRecord(deps, scope, person.person_id);
      const named = withPerson(person);
      let cursor = accessCursor ?? undefined;
      accessCursor = null;
      do {
        const page = await personAccess(deps, scope, record, { limit, cursor, connection_id: connectionId });
        cursor = page.nextCursor ?? undefined;
        if (page.items.length > 0) yield { rows: page.items.map(named), after: cursor ? { kind: 'people', people_cursor: peopleCursor, person: i, access_cursor: cursor } : nextPerson(i) };
      } while (cursor);
    }
    if (!people.nextCursor) return;
    peopleCursor = people.nextCursor;
    first = 0;
  }
}
