/** What the runs discovered: entities (with a kind filter) and relationships, page by page. */
import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import { send } from '../api/send';
import { FormMessage } from '../components/form-message';
import { Timestamp } from '../components/timestamp';

type Entity = Schemas['Entity'];
type Kind = Entity['kind'];
const KINDS: Kind[] = ['Principal', 'Account', 'Entitlement', 'Resource', 'CloudAccountBoundary'];
const PAGE = 25;

export function ConnectionInventoryPanel({ connectionId, version }: { connectionId: string; version: number }) {
  const [kind, setKind] = useState<Kind | ''>('');
  const [entities, setEntities] = useState<Entity[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [relationships, setRelationships] = useState<Schemas['Relationship'][]>([]);
  const [relationshipCursor, setRelationshipCursor] = useState<string | null>(null);
  const [message, setMessage] = useState<string | undefined>();

  async function loadEntities(from?: string) {
    const query = { limit: PAGE, ...(kind ? { kind } : {}), ...(from ? { cursor: from } : {}) };
    const outcome = await send(() => api.GET('/v1/connections/{id}/entities', { params: { path: { id: connectionId }, query } }));
    if (!outcome.ok) return setMessage(outcome.problem.detail);
    setEntities((seen) => [...(from ? seen : []), ...outcome.data.entities]);
    setCursor(outcome.data.next_cursor);
  }

  async function loadRelationships(from?: string) {
    const outcome = await send(() => api.GET('/v1/connections/{id}/relationships', { params: { path: { id: connectionId }, query: { limit: PAGE, ...(from ? { cursor: from } : {}) } } }));
    if (!outcome.ok) return setMessage(outcome.problem.detail);
    setRelationships((seen) => [...(from ? seen : []), ...outcome.data.relationships]);
    setRelationshipCursor(outcome.data.next_cursor);
  }

  useEffect(() => void loadEntities(), [connectionId, kind, version]);
  useEffect(() => void loadRelationships(), [connectionId, version]);

  return (
    <section aria-labelledby="inventory-title">
      <h2 id="inventory-title">Inventory</h2>
      <FormMessage message={message} />
      <div class="field">
        <label for="entity-kind">Kind</label>
        <select id="entity-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as Kind | '')}>
          <option value="">All kinds</option>
          {KINDS.map((k) => <option key={k} value={k}>{k}</option>)}
        </select>
      </div>
      {entities.length === 0 ? <p>No entities.</p> : (
        <table class="entities">
          <caption class="visually-hidden">Entities</caption>
          <thead><tr><th scope="col">Name</th><th scope="col">Kind</th><th scope="col">Source id</th><th scope="col">Last seen</th></tr></thead>
          <tbody>{entities.map((e) => <tr key={e.entity_id}><td>{e.display_name}</td><td>{e.kind}</td><td>{e.source_id}</td><td><Timestamp value={e.last_seen_at} /></td></tr>)}</tbody>
        </table>
      )}
      {cursor && <button type="button" onClick={() => void loadEntities(cursor)}>More entities</button>}
      <h3>Relationships</h3>
      {relationships.length === 0 ? <p>No relationships.</p> : (
        <table>
          <caption class="visually-hidden">Relationships</caption>
          <thead><tr><th scope="col">Kind</th><th scope="col">From</th><th scope="col">To</th></tr></thead>
          <tbody>{relationships.map((r, i) => <tr key={i}><td>{r.kind}</td><td>{r.from_source_id}</td><td>{r.to_source_id}</td></tr>)}</tbody>
        </table>
      )}
      {relationshipCursor && <button type="button" onClick={() => void loadRelationships(relationshipCursor)}>More relationships</button>}
    </section>
  );
}
