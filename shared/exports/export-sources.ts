/**
 * What each export source reads, page by page, through the very view functions its list route
 * answers from (inventory-views.ts, people-views.ts, access-views.ts, access-change-views.ts,
 * catalog-views.ts), so an exported row is the item of that list, and the item schema the
 * OpenAPI document publishes for it gives the file's columns. A page is read, written and
 * dropped before the next: nothing holds more than one page of a source.
 *
 * `access` rows are a person's access items (GET /v1/people/{id}/access) with the person they
 * belong to in front, `person`, so that every person's access fits one file; with `entity_id`
 * they are the items of GET /v1/connections/{id}/entities/{entity_id}/access.
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

/** Rows read per page of a source: the lists' largest page. */
export const EXPORT_PAGE_SIZE = 100;

export interface SourceReader {
  /** The schema of one row: the list item's, as the OpenAPI document publishes it. */
  rowSchema: z.core.$ZodType;
  /** Every row, a page at a time, in the list's order. */
  pages(): AsyncGenerator<readonly object[]>;
}

type PageOf<T> = (cursor: string | undefined) => Promise<Page<T>>;

async function* pagesOf<T extends object>(read: PageOf<T>): AsyncGenerator<readonly T[]> {
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    if (page.items.length > 0) yield page.items;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}

/** The element schema of a list answer's array field (`{entities: [...], next_cursor}` → the entity). */
function itemSchemaOf(listSchema: z.core.$ZodType, field: string): z.core.$ZodType {
  const shape = (listSchema._zod.def as unknown as { shape: Record<string, z.core.$ZodType> }).shape;
  return (shape[field]!._zod.def as unknown as { element: z.core.$ZodType }).element;
}

const PersonNameSchema = z.object({ person_id: z.string(), display_name: z.string() });

const personAccessRowSchema = () => z.extend(z.object({ person: PersonNameSchema }), (itemSchemaOf(PersonAccessListSchema, 'access') as z.ZodMiniObject)._zod.def.shape);

/** Every access item of one person, with the person in front. */
async function* accessOfPerson(deps: Deps, scope: WorkspaceScope, person: { person_id: string; display_name: string }, connectionId: string | undefined): AsyncGenerator<readonly object[]> {
  for await (const items of pagesOf((cursor) => personAccess(deps, scope, person.person_id, { limit: EXPORT_PAGE_SIZE, cursor, connection_id: connectionId }))) {
    yield items.map((item) => ({ person: { person_id: person.person_id, display_name: person.display_name }, ...item }));
  }
}

export function sourceReader(deps: Deps, scope: WorkspaceScope, source: ExportSource, filters: ExportFilters): SourceReader {
  const limit = EXPORT_PAGE_SIZE;
  switch (source) {
    case 'entities':
      return { rowSchema: itemSchemaOf(EntityListSchema, 'entities'), pages: () => pagesOf((cursor) => listEntities(deps, scope, filters.connection_id!, { limit, cursor })) };
    case 'relationships':
      return { rowSchema: itemSchemaOf(RelationshipListSchema, 'relationships'), pages: () => pagesOf((cursor) => listRelationships(deps, scope, filters.connection_id!, { limit, cursor })) };
    case 'people':
      return { rowSchema: itemSchemaOf(PeopleListSchema, 'people'), pages: () => pagesOf((cursor) => listPeople(deps, scope, { limit, cursor })) };
    case 'access_changes':
      return {
        rowSchema: itemSchemaOf(AccessChangeListSchema, 'access_changes'),
        pages: () => pagesOf((cursor) => listAccessChanges(deps, scope, { limit, cursor, since: filters.since, until: filters.until, person_id: filters.person_id, connection_id: filters.connection_id })),
      };
    case 'audit_events':
      return { rowSchema: itemSchemaOf(AuditEventListSchema, 'audit_events'), pages: () => pagesOf((cursor) => listAuditEvents(deps, scope, { limit, cursor, since: filters.since, until: filters.until })) };
    case 'access':
      if (filters.entity_id) {
        return { rowSchema: itemSchemaOf(EntityAccessListSchema, 'access'), pages: () => pagesOf((cursor) => entityAccess(deps, scope, filters.connection_id!, filters.entity_id!, { limit, cursor })) };
      }
      return { rowSchema: personAccessRowSchema(), pages: () => accessPages(deps, scope, filters) };
  }
}

/** One person's access, or every person's (the people in list order, each one's access in turn). */
async function* accessPages(deps: Deps, scope: WorkspaceScope, filters: ExportFilters): AsyncGenerator<readonly object[]> {
  if (filters.person_id) {
    const person = viewOf(await getPersonRecord(deps, scope, filters.person_id));
    yield* accessOfPerson(deps, scope, person, filters.connection_id);
    return;
  }
  for await (const people of pagesOf((cursor) => listPeople(deps, scope, { limit: EXPORT_PAGE_SIZE, cursor }))) {
    for (const person of people) yield* accessOfPerson(deps, scope, person, filters.connection_id);
  }
}
