/**
 * `/people/{person_id}`: one person: their emails, their account in every connection (by the
 * connection's name), and what they can reach (Resources and Entitlements), each path hop by
 * hop, filtered by connection and kind; links to their access history and a CSV export.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import type { operations } from '../api/schema';
import { send } from '../api/send';
import { FormMessage } from '../components/form-message';
import { ShowMore } from '../components/show-more';
import { PageHeader } from '../components/page-header';
import { ExportButton } from '../exports/export-button';
import { Link } from '../routing/link';
import { AccessPaths, EntityName } from './access-path';
import { connectionName, namesOf, useConnections } from './connection-names';
import { accessHistoryPath } from './paths';

type Person = operations['peopleGet']['responses'][200]['content']['application/json'];
type Access = { connection_id: string; target: Schemas['EntityRef']; paths: Schemas['EntityRef'][][] };
type TargetKind = 'Entitlement' | 'Resource';
const PAGE = 50;

export function PersonPage({ personId }: { personId: string }) {
  const names = namesOf(useConnections());
  const [person, setPerson] = useState<Person | undefined>();
  const [message, setMessage] = useState<string | undefined>();
  const [connectionId, setConnectionId] = useState('');
  const [kind, setKind] = useState<TargetKind | ''>('');
  const [access, setAccess] = useState<Access[] | undefined>();
  const [cursor, setCursor] = useState<string | null>(null);
  // Filters change faster than answers come: only the answer to the latest request is shown.
  const latest = useRef(0);
  const accessTable = useRef<HTMLTableElement>(null);

  useEffect(() => {
    void send(() => api.GET('/v1/people/{person_id}', { params: { path: { person_id: personId } } })).then((outcome) => {
      if (outcome.ok) setPerson(outcome.data);
      else setMessage(outcome.problem.detail);
    });
  }, [personId]);

  async function loadAccess(from?: string) {
    const query = { limit: PAGE, ...(connectionId ? { connection_id: connectionId } : {}), ...(kind ? { kind } : {}), ...(from ? { cursor: from } : {}) };
    const request = ++latest.current;
    const outcome = await send(() => api.GET('/v1/people/{person_id}/access', { params: { path: { person_id: personId }, query } }));
    if (request !== latest.current) return;
    if (!outcome.ok) return setMessage(outcome.problem.detail);
    setAccess((seen) => [...(from ? seen ?? [] : []), ...outcome.data.access]);
    setCursor(outcome.data.next_cursor);
  }
  useEffect(() => void loadAccess(), [personId, connectionId, kind]);

  if (!person) return <main><h1>Person</h1><FormMessage message={message} />{!message && <p role="status">Loading…</p>}</main>;
  const connectionIds = [...new Set(person.accounts.map((a) => a.connection_id))].sort((a, b) => connectionName(names, a).localeCompare(connectionName(names, b)));
  return (
    <main>
      <p><Link href="/people">People</Link></p>
      <PageHeader title={person.display_name} />
      <dl class="details">
        <dt>Emails</dt><dd>{person.emails.length === 0 ? 'none' : person.emails.join(', ')}</dd>
        <dt>Accounts</dt><dd>{person.accounts.length} in {connectionIds.length} {connectionIds.length === 1 ? 'connection' : 'connections'}</dd>
      </dl>
      <p><Link href={accessHistoryPath({ person_id: person.person_id })}>Access history of {person.display_name}</Link></p>
      <FormMessage message={message} />

      <section aria-labelledby="accounts-title">
        <h2 id="accounts-title">Accounts</h2>
        <table class="accounts stack">
          <caption class="visually-hidden">Accounts of {person.display_name}</caption>
          <thead><tr><th scope="col">Account</th><th scope="col">Connection</th><th scope="col">Source id</th></tr></thead>
          <tbody>
            {person.accounts.map((account) => (
              <tr key={account.entity_id}>
                <th scope="row" data-label="Account"><EntityName connectionId={account.connection_id} entity={account} /></th>
                <td data-label="Connection"><Link href={`/connections/${encodeURIComponent(account.connection_id)}`}>{connectionName(names, account.connection_id)}</Link></td>
                <td data-label="Source id">{account.source_id}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section aria-labelledby="access-title">
        <h2 id="access-title">What {person.display_name} can reach</h2>
        <div class="inline-form filters">
          <div class="field">
            <label for="access-connection">Connection</label>
            <select id="access-connection" value={connectionId} onChange={(e) => setConnectionId(e.currentTarget.value)}>
              <option value="">All connections</option>
              {connectionIds.map((id) => <option key={id} value={id}>{connectionName(names, id)}</option>)}
            </select>
          </div>
          <div class="field">
            <label for="access-kind">Kind</label>
            <select id="access-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as TargetKind | '')}>
              <option value="">Resources and entitlements</option>
              <option value="Resource">Resources</option>
              <option value="Entitlement">Entitlements</option>
            </select>
          </div>
        </div>
        <ExportButton label="Export this access (CSV)" request={{ source: 'access', person_id: person.person_id, ...(connectionId ? { connection_id: connectionId } : {}) }} fileName={`access-${person.display_name}.csv`} />
        {access?.length === 0 && <p>Nothing reachable{connectionId || kind ? ' with these filters' : ''}.</p>}
        {access && access.length > 0 && (
          <table class="access stack" ref={accessTable}>
            <caption class="visually-hidden">What {person.display_name} can reach, and how</caption>
            <thead><tr><th scope="col">Reaches</th><th scope="col">Connection</th><th scope="col">How (each path, hop by hop)</th></tr></thead>
            <tbody>
              {access.map((item) => (
                <tr key={`${item.connection_id}-${item.target.entity_id}`}>
                  <th scope="row" data-label="Reaches"><EntityName connectionId={item.connection_id} entity={item.target} /></th>
                  <td data-label="Connection">{connectionName(names, item.connection_id)}</td>
                  <td data-label="How"><AccessPaths connectionId={item.connection_id} paths={item.paths} target={item.target.display_name} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <ShowMore shown={access?.length ?? 0} noun={['thing they can reach', 'things they can reach']} more={cursor !== null} rows={accessTable} onMore={() => loadAccess(cursor ?? undefined)} />
      </section>
    </main>
  );
}
