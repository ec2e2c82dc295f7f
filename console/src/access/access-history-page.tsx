/**
 * `/access-history?person_id=&connection_id=&since=&until=`: who gained or lost what, when, as a
 * timeline (newest first, one heading per day), each entry saying the person, the change, the
 * target, the hop it came through and the connection, by name. The filters live in the address
 * (a person's page links here with theirs); dates are whole days of the reader's calendar.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import { send } from '../api/send';
import { FormMessage } from '../components/form-message';
import { PageHeader } from '../components/page-header';
import { Timestamp } from '../components/timestamp';
import { ExportButton } from '../exports/export-button';
import { Link } from '../routing/link';
import { navigate, type Location } from '../routing/router';
import { EntityName } from './access-path';
import { connectionName, namesOf, useConnections } from './connection-names';
import { accessHistoryPath, personPath } from './paths';

type AccessChange = { at: string; run_id: string; connection_id: string; change: 'gained' | 'lost'; person: { person_id: string; display_name: string }; target: Schemas['EntityRef']; via: Schemas['EntityRef'] };
const PAGE = 50;
const DAY = new Intl.DateTimeFormat(undefined, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' });

/** `2026-11-28` (a date input's value) as the start of that day in the reader's zone, in UTC. */
const startOfDay = (date: string) => new Date(`${date}T00:00:00`).toISOString();
const dayAfter = (date: string) => {
  const d = new Date(`${date}T00:00:00`);
  d.setDate(d.getDate() + 1);
  return d.toISOString();
};

interface Filters { person_id: string; connection_id: string; since: string; until: string }

function filtersOf(location: Location): Filters {
  const get = (name: string) => location.query.get(name) ?? '';
  return { person_id: get('person_id'), connection_id: get('connection_id'), since: get('since'), until: get('until') };
}

export function AccessHistoryPage({ location }: { location: Location }) {
  const applied = filtersOf(location);
  const key = new URLSearchParams(Object.entries(applied)).toString();
  const connections = useConnections();
  const names = namesOf(connections);
  const [people, setPeople] = useState<{ person_id: string; display_name: string }[]>([]);
  const [draft, setDraft] = useState<Filters>(applied);
  const [changes, setChanges] = useState<AccessChange[] | undefined>();
  const [cursor, setCursor] = useState<string | null>(null);
  // Only the answer to the latest request is shown (filters change faster than answers come).
  const latest = useRef(0);
  const [message, setMessage] = useState<string | undefined>();

  useEffect(() => {
    void send(() => api.GET('/v1/people', { params: { query: { limit: 100 } } })).then(async (outcome) => {
      if (!outcome.ok) return;
      const listed = outcome.data.people.map(({ person_id, display_name }) => ({ person_id, display_name }));
      // The person in the address may be past the first page: read them so the picker names them.
      if (applied.person_id && !listed.some((p) => p.person_id === applied.person_id)) {
        const one = await send(() => api.GET('/v1/people/{person_id}', { params: { path: { person_id: applied.person_id } } }));
        if (one.ok) listed.push({ person_id: one.data.person_id, display_name: one.data.display_name });
      }
      setPeople(listed);
    });
  }, [applied.person_id]);

  const query = {
    ...(applied.person_id ? { person_id: applied.person_id } : {}),
    ...(applied.connection_id ? { connection_id: applied.connection_id } : {}),
    ...(applied.since ? { since: startOfDay(applied.since) } : {}),
    ...(applied.until ? { until: dayAfter(applied.until) } : {}),
  };

  async function load(from?: string) {
    const request = ++latest.current;
    const outcome = await send(() => api.GET('/v1/access-changes', { params: { query: { ...query, limit: PAGE, ...(from ? { cursor: from } : {}) } } }));
    if (request !== latest.current) return;
    if (!outcome.ok) return setMessage(outcome.problem.detail);
    setMessage(undefined);
    setChanges((seen) => [...(from ? seen ?? [] : []), ...outcome.data.access_changes]);
    setCursor(outcome.data.next_cursor);
  }
  useEffect(() => {
    setDraft(applied);
    void load();
  }, [key]);

  function apply(event: Event) {
    event.preventDefault();
    if (draft.since && draft.until && draft.since > draft.until) return setMessage('“From” must be on or before “To”.');
    const params = new URLSearchParams(Object.entries(draft).filter(([, v]) => v)).toString();
    navigate(params ? `/access-history?${params}` : '/access-history');
  }

  const set = (name: keyof Filters) => (e: { currentTarget: HTMLInputElement | HTMLSelectElement }) => setDraft({ ...draft, [name]: e.currentTarget.value });
  const days = groupByDay(changes ?? []);
  return (
    <main>
      <PageHeader title="Access history" />
      <p class="muted">Who gained or lost access to what, as the connections' runs found it, newest first.</p>
      <form class="inline-form filters" aria-label="Filter the access history" onSubmit={apply}>
        <div class="field">
          <label for="history-person">Person</label>
          <select id="history-person" value={draft.person_id} onChange={set('person_id')}>
            <option value="">Everyone</option>
            {people.map((p) => <option key={p.person_id} value={p.person_id}>{p.display_name}</option>)}
          </select>
        </div>
        <div class="field">
          <label for="history-connection">Connection</label>
          <select id="history-connection" value={draft.connection_id} onChange={set('connection_id')}>
            <option value="">All connections</option>
            {connections.map((c) => <option key={c.connection_id} value={c.connection_id}>{c.name}</option>)}
          </select>
        </div>
        <div class="field">
          <label for="history-since">From</label>
          <input id="history-since" type="date" value={draft.since} onInput={set('since')} />
        </div>
        <div class="field">
          <label for="history-until">To</label>
          <input id="history-until" type="date" value={draft.until} onInput={set('until')} />
        </div>
        <button type="submit">Show</button>
        {key && <Link href={accessHistoryPath()}>Clear the filters</Link>}
      </form>
      <FormMessage message={message} />
      <ExportButton label="Export the access history (CSV)" request={{ source: 'access_changes', ...query }} fileName="access-history.csv" />
      {changes?.length === 0 && <p>No access changes{key ? ' with these filters' : ''}. A connection's first run sets its baseline; later runs record what changed.</p>}
      {days.map(({ day, items }, d) => (
        <section key={day} aria-labelledby={`day-${d}`}>
          <h2 id={`day-${d}`}>{day}</h2>
          <ol class="timeline">
            {items.map((c, i) => (
              <li key={`${c.run_id}-${c.person.person_id}-${c.target.entity_id}-${i}`} class={c.change}>
                <Timestamp value={c.at} />: <Link href={personPath(c.person.person_id)}>{c.person.display_name}</Link>{' '}
                <strong>{c.change === 'gained' ? 'gained' : 'lost'}</strong> <EntityName connectionId={c.connection_id} entity={c.target} />{' '}
                via <EntityName connectionId={c.connection_id} entity={c.via} /> in {connectionName(names, c.connection_id)}
              </li>
            ))}
          </ol>
        </section>
      ))}
      {cursor && <button type="button" onClick={() => void load(cursor)}>Older changes</button>}
    </main>
  );
}

function groupByDay(changes: AccessChange[]): { day: string; items: AccessChange[] }[] {
  const days: { day: string; items: AccessChange[] }[] = [];
  for (const change of changes) {
    const day = DAY.format(new Date(change.at));
    const last = days[days.length - 1];
    if (last?.day === day) last.items.push(change);
    else days.push({ day, items: [change] });
  }
  return days;
}
