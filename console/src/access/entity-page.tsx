/**
 * `/connections/{id}/entities/{entity_id}`: one entity of a connection's inventory: its
 * attributes, its neighbours by name (both directions, each linked), and, for what can be
 * reached (a Resource or an Entitlement), who can reach it: each person and account with every
 * path hop by hop.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import { send } from '../api/send';
import { FormMessage } from '../components/form-message';
import { ShowMore } from '../components/show-more';
import { PageHeader } from '../components/page-header';
import { Timestamp } from '../components/timestamp';
import { ExportButton } from '../exports/export-button';
import { Link } from '../routing/link';
import { AccessPaths, EntityName } from './access-path';
import { entityApi, type EntityDetail } from './entity-api';
import { personPath } from './paths';

type Holder = { person: { person_id: string; display_name: string }; account: Schemas['EntityRef']; paths: Schemas['EntityRef'][][] };
const REACHABLE = ['Resource', 'Entitlement'];

export function EntityPage({ connectionId, entityId }: { connectionId: string; entityId: string }) {
  const [connection, setConnection] = useState<Schemas['Connection'] | undefined>();
  const [entity, setEntity] = useState<EntityDetail | undefined>();
  const [message, setMessage] = useState<string | undefined>();

  useEffect(() => {
    void send(() => api.GET('/v1/connections/{id}', { params: { path: { id: connectionId } } })).then((outcome) => {
      if (outcome.ok) setConnection(outcome.data);
    });
    void send(() => entityApi.GET('/v1/connections/{id}/entities/{entity_id}', { params: { path: { id: connectionId, entity_id: entityId } } })).then((outcome) => {
      if (outcome.ok) setEntity(outcome.data);
      else setMessage(outcome.problem.detail);
    });
  }, [connectionId, entityId]);

  if (!entity) return <main><h1>Entity</h1><FormMessage message={message} />{!message && <p role="status">Loading…</p>}</main>;
  const attributes = Object.entries(entity.attributes).sort(([a], [b]) => a.localeCompare(b));
  return (
    <main>
      <p><Link href={`/connections/${encodeURIComponent(connectionId)}`}>{connection?.name ?? 'The connection'}</Link></p>
      <PageHeader title={<>{entity.display_name} <span class="kind">({entity.kind})</span></>} />
      <dl class="details">
        <dt>Kind</dt><dd>{entity.kind}</dd>
        <dt>Connection</dt><dd>{connection?.name ?? connectionId}</dd>
        <dt>Source id</dt><dd>{entity.source_id}</dd>
        <dt>First seen</dt><dd><Timestamp value={entity.first_seen_at} /></dd>
        <dt>Last seen</dt><dd><Timestamp value={entity.last_seen_at} /></dd>
      </dl>

      <section aria-labelledby="attributes-title">
        <h2 id="attributes-title">Attributes</h2>
        {attributes.length === 0 ? <p>None.</p> : (
          <dl class="details attributes">
            {attributes.map(([name, value]) => [<dt key={`${name}-t`}>{name}</dt>, <dd key={`${name}-d`}>{attributeText(value)}</dd>])}
          </dl>
        )}
      </section>

      <Neighbours connectionId={connectionId} title="Points to" id="out" items={entity.relationships.out} total={entity.relationships.out_total} />
      <Neighbours connectionId={connectionId} title="Pointed to by" id="in" items={entity.relationships.in} total={entity.relationships.in_total} />
      {REACHABLE.includes(entity.kind) && <WhoCanReach connectionId={connectionId} entity={entity} />}
    </main>
  );
}

function attributeText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

function Neighbours({ connectionId, title, id, items, total }: { connectionId: string; title: string; id: string; items: EntityDetail['relationships']['out']; total: number }) {
  return (
    <section aria-labelledby={`neighbours-${id}`}>
      <h2 id={`neighbours-${id}`}>{title} ({total})</h2>
      {items.length === 0 ? <p>Nothing.</p> : (
        <table class="neighbours stack">
          <caption class="visually-hidden">{title}</caption>
          <thead><tr><th scope="col">Entity</th><th scope="col">Relationship</th></tr></thead>
          <tbody>{items.map((n) => <tr key={`${n.kind}-${n.entity.entity_id}`}><th scope="row" data-label="Entity"><EntityName connectionId={connectionId} entity={n.entity} /></th><td data-label="Relationship">{n.kind}</td></tr>)}</tbody>
        </table>
      )}
      {total > items.length && <p>Showing {items.length} of {total}; the connection's relationships list has them all.</p>}
    </section>
  );
}

function WhoCanReach({ connectionId, entity }: { connectionId: string; entity: EntityDetail }) {
  const [holders, setHolders] = useState<Holder[] | undefined>();
  const table = useRef<HTMLTableElement>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [message, setMessage] = useState<string | undefined>();

  async function load(from?: string) {
    const outcome = await send(() => api.GET('/v1/connections/{id}/entities/{entity_id}/access', { params: { path: { id: connectionId, entity_id: entity.entity_id }, query: { limit: 50, ...(from ? { cursor: from } : {}) } } }));
    if (!outcome.ok) return setMessage(outcome.problem.detail);
    setHolders((seen) => [...(from ? seen ?? [] : []), ...outcome.data.access]);
    setCursor(outcome.data.next_cursor);
  }
  useEffect(() => void load(), [entity.entity_id]);

  return (
    <section aria-labelledby="holders-title">
      <h2 id="holders-title">Who can reach {entity.display_name}</h2>
      <FormMessage message={message} />
      <ExportButton label="Export who can reach it (CSV)" request={{ source: 'access', connection_id: connectionId, entity_id: entity.entity_id }} fileName={`access-to-${entity.display_name}.csv`} />
      {holders?.length === 0 && <p>No one.</p>}
      {holders && holders.length > 0 && (
        <table class="holders stack" ref={table}>
          <caption class="visually-hidden">People who can reach {entity.display_name}, and how</caption>
          <thead><tr><th scope="col">Person</th><th scope="col">Account</th><th scope="col">How (each path, hop by hop)</th></tr></thead>
          <tbody>
            {holders.map((h) => (
              <tr key={`${h.person.person_id}-${h.account.entity_id}`}>
                <th scope="row" data-label="Person"><Link href={personPath(h.person.person_id)}>{h.person.display_name}</Link></th>
                <td data-label="Account"><EntityName connectionId={connectionId} entity={h.account} /></td>
                <td data-label="How"><AccessPaths connectionId={connectionId} paths={h.paths} target={entity.display_name} /></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ShowMore shown={holders?.length ?? 0} noun={['account that reaches it', 'accounts that reach it']} more={cursor !== null} rows={table} onMore={() => load(cursor ?? undefined)} />
    </section>
  );
}
