/**
 * `/people?q=`: the workspace's people (API.md "Access graph"), found by the start of a name or
 * an email, each with their emails, how many accounts and in which connections (by name).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import { send } from '../api/send';
import { FormMessage } from '../components/form-message';
import { ShowMore } from '../components/show-more';
import { PageHeader } from '../components/page-header';
import { ExportButton } from '../exports/export-button';
import { Link } from '../routing/link';
import { navigate, type Location } from '../routing/router';
import { connectionName, namesOf, useConnections } from './connection-names';
import { personPath } from './paths';

const PAGE = 50;

export function PeoplePage({ location }: { location: Location }) {
  const q = location.query.get('q') ?? '';
  const names = namesOf(useConnections());
  const [people, setPeople] = useState<Schemas['Person'][] | undefined>();
  const [cursor, setCursor] = useState<string | null>(null);
  // Only the answer to the latest request is shown (filters change faster than answers come).
  const latest = useRef(0);
  const table = useRef<HTMLTableElement>(null);
  const [search, setSearch] = useState(q);
  const [message, setMessage] = useState<string | undefined>();

  async function load(from?: string) {
    const query = { limit: PAGE, ...(q ? { q } : {}), ...(from ? { cursor: from } : {}) };
    const request = ++latest.current;
    const outcome = await send(() => api.GET('/v1/people', { params: { query } }));
    if (request !== latest.current) return;
    if (!outcome.ok) return setMessage(outcome.problem.detail);
    setMessage(undefined);
    setPeople((seen) => [...(from ? seen ?? [] : []), ...outcome.data.people]);
    setCursor(outcome.data.next_cursor);
  }
  useEffect(() => {
    setSearch(q);
    void load();
  }, [q]);

  return (
    <main>
      <PageHeader title="People" />
      <p class="muted">Everyone the connections found, one person per email across all of them.</p>
      <form role="search" class="inline-form" onSubmit={(e) => { e.preventDefault(); navigate(search.trim() ? `/people?q=${encodeURIComponent(search.trim())}` : '/people'); }}>
        <div class="field">
          <label for="people-search">Name or email</label>
          <input id="people-search" type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} aria-describedby="people-search-hint" />
          <small id="people-search-hint">The start of a name or of an email.</small>
        </div>
        <button type="submit">Search</button>
      </form>
      <FormMessage message={message} />
      <ExportButton label="Export people (CSV)" request={{ source: 'people' }} fileName="people.csv" />
      {people?.length === 0 && <p>{q ? `No one whose name or email starts with “${q}”.` : 'No people yet: a connection’s first run finds them.'}</p>}
      {people && people.length > 0 && (
        <table class="people stack" ref={table}>
          <caption class="visually-hidden">{q ? `People matching ${q}` : 'People'}</caption>
          <thead><tr><th scope="col">Name</th><th scope="col">Emails</th><th scope="col">Accounts</th><th scope="col">Connections</th></tr></thead>
          <tbody>
            {people.map((p) => (
              <tr key={p.person_id}>
                <th scope="row" data-label="Name"><Link href={personPath(p.person_id)}>{p.display_name}</Link></th>
                <td data-label="Emails">{p.emails.length === 0 ? 'none' : p.emails.join(', ')}</td>
                <td data-label="Accounts">{p.accounts}</td>
                <td data-label="Connections">{p.connections.map((id) => connectionName(names, id)).join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ShowMore shown={people?.length ?? 0} noun={['person', 'people']} more={cursor !== null} rows={table} onMore={() => load(cursor ?? undefined)} />
    </main>
  );
}
