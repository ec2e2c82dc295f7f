/**
 * What the runs discovered: entities (searchable by the start of a name or source id, with a
 * kind filter, each linked to its page) and relationships (with a relationship-kind filter,
 * each end by name), each list with a CSV export. The API pages them with a cursor: "Show more"
 * adds the next page below the rows shown (components/show-more.tsx says why not page numbers).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import { send } from '../api/send';
import { EntityName } from '../access/access-path';
import { entityPath } from '../access/paths';
import { FormMessage } from '../components/form-message';
import { Timestamp } from '../components/timestamp';
import { ExportButton } from '../exports/export-button';
import { ShowMore } from '../components/show-more';
import { Link } from '../routing/link';

type Entity = Schemas['Entity'];
type Kind = Entity['kind'];
type Ref = Schemas['EntityRef'];
/** A relationship as API.md has it: each end as a ref, so it is shown by name. */
type Relationship = Schemas['Relationship'] & { from?: Ref; to?: Ref };
type RelationshipKind = Schemas['Relationship']['kind'];
const KINDS: Kind[] = ['Principal', 'Account', 'Entitlement', 'Resource', 'CloudAccountBoundary'];
const RELATIONSHIP_KINDS: RelationshipKind[] = ['principal_represents_account', 'account_assigned_entitlement', 'entitlement_grants_resource'];
const PAGE = 25;

export function ConnectionInventoryPanel({ connectionId, version }: { connectionId: string; version: number }) {
  const [kind, setKind] = useState<Kind | ''>('');
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const [entities, setEntities] = useState<Entity[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [relationshipKind, setRelationshipKind] = useState<RelationshipKind | ''>('');
  const [relationships, setRelationships] = useState<Relationship[]>([]);
  const [relationshipCursor, setRelationshipCursor] = useState<string | null>(null);
  const [message, setMessage] = useState<string | undefined>();
  // Filters change faster than answers come: only the latest request's answer is shown.
  const latestEntities = useRef(0);
  const latestRelationships = useRef(0);
  const entityTable = useRef<HTMLTableElement>(null);
  const relationshipTable = useRef<HTMLTableElement>(null);

  async function loadEntities(from?: string) {
    // `q` is API.md's; the cast goes once the served document lists it.
    const query = { limit: PAGE, ...(kind ? { kind } : {}), ...(q ? { q } : {}), ...(from ? { cursor: from } : {}) } as { limit: number; kind?: Kind; cursor?: string };
    const request = ++latestEntities.current;
    const outcome = await send(() => api.GET('/v1/connections/{id}/entities', { params: { path: { id: connectionId }, query } }));
    if (request !== latestEntities.current) return;
    if (!outcome.ok) return setMessage(outcome.problem.detail);
    setEntities((seen) => [...(from ? seen : []), ...outcome.data.entities]);
    setCursor(outcome.data.next_cursor);
  }

  async function loadRelationships(from?: string) {
    const query = { limit: PAGE, ...(relationshipKind ? { kind: relationshipKind } : {}), ...(from ? { cursor: from } : {}) };
    const request = ++latestRelationships.current;
    const outcome = await send(() => api.GET('/v1/connections/{id}/relationships', { params: { path: { id: connectionId }, query } }));
    if (request !== latestRelationships.current) return;
    if (!outcome.ok) return setMessage(outcome.problem.detail);
    setRelationships((seen) => [...(from ? seen : []), ...outcome.data.relationships]);
    setRelationshipCursor(outcome.data.next_cursor);
  }

  useEffect(() => void loadEntities(), [connectionId, kind, q, version]);
  useEffect(() => void loadRelationships(), [connectionId, relationshipKind, version]);

  return (
    <section aria-labelledby="inventory-title">
      <h2 id="inventory-title">Inventory</h2>
      <FormMessage message={message} />
      <h3 id="entities-title">Entities</h3>
      <form role="search" aria-labelledby="entities-title" class="inline-form filters" onSubmit={(e) => { e.preventDefault(); setQ(search.trim()); }}>
        <div class="field">
          <label for="entity-search">Name or source id</label>
          <input id="entity-search" type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="entity-kind">Entity kind</label>
          <select id="entity-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as Kind | '')}>
            <option value="">All kinds</option>
            {KINDS.map((k) => <option key={k} value={k}>{k}</option>)}
          </select>
        </div>
        <button type="submit">Search</button>
      </form>
      <ExportButton label="Export entities (CSV)" request={{ source: 'entities', connection_id: connectionId }} fileName="entities.csv" />
      {entities.length === 0 ? <p>{q ? `No entity whose name or source id starts with “${q}”.` : 'No entities.'}</p> : (
        <table class="entities stack" ref={entityTable}>
          <caption class="visually-hidden">Entities</caption>
          <thead><tr><th scope="col">Name</th><th scope="col">Kind</th><th scope="col">Source id</th><th scope="col">Last seen</th></tr></thead>
          <tbody>
            {entities.map((e) => (
              <tr key={e.entity_id}>
                <td data-label="Name"><Link href={entityPath(connectionId, e.entity_id)}>{e.display_name}</Link></td>
                <td data-label="Kind">{e.kind}</td>
                <td data-label="Source id">{e.source_id}</td>
                <td data-label="Last seen"><Timestamp value={e.last_seen_at} /></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ShowMore shown={entities.length} noun={['entity', 'entities']} more={cursor !== null} rows={entityTable} onMore={() => loadEntities(cursor ?? undefined)} />
      <h3>Relationships</h3>
      <div class="field">
        <label for="relationship-kind">Relationship kind</label>
        <select id="relationship-kind" value={relationshipKind} onChange={(e) => setRelationshipKind(e.currentTarget.value as RelationshipKind | '')}>
          <option value="">All kinds</option>
          {RELATIONSHIP_KINDS.map((k) => <option key={k} value={k}>{k}</option>)}
        </select>
      </div>
      <ExportButton label="Export relationships (CSV)" request={{ source: 'relationships', connection_id: connectionId }} fileName="relationships.csv" />
      {relationships.length === 0 ? <p>No relationships.</p> : (
        <table class="relationships stack" ref={relationshipTable}>
          <caption class="visually-hidden">Relationships</caption>
          <thead><tr><th scope="col">Kind</th><th scope="col">From</th><th scope="col">To</th></tr></thead>
          <tbody>
            {relationships.map((r, i) => (
              <tr key={i}>
                <td data-label="Kind">{r.kind}</td>
                <td data-label="From">{r.from ? <EntityName connectionId={connectionId} entity={r.from} /> : r.from_source_id}</td>
                <td data-label="To">{r.to ? <EntityName connectionId={connectionId} entity={r.to} /> : r.to_source_id}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ShowMore shown={relationships.length} noun={['relationship', 'relationships']} more={relationshipCursor !== null} rows={relationshipTable} onMore={() => loadRelationships(relationshipCursor ?? undefined)} />
    </section>
  );
}
