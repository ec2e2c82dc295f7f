/**
 * The audit logs: the workspace's (`GET /v1/audit-events`, every role) and the tenant's
 * identity log (`GET /v1/tenants/{id}/audit-events`, tenant admins), newest first, paged. Actor
 * and target by name: the event's own payload names most targets (a connection's or token's
 * name, an email); the rest, and every actor, come from the users, connections and workspaces
 * lists. Filters: the action (a select of the log's known actions) and a date range, which the
 * identity log's API applies (`since`, `until`); the workspace log's API has no date parameters,
 * so the console reads its pages newest first and keeps the events in the range.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import { send, type Outcome } from '../api/send';
import { FormMessage } from '../components/form-message';
import { PageHeader } from '../components/page-header';
import { Timestamp } from '../components/timestamp';
import { useCurrentUser } from '../session/current-user';
import { actionLabel, IDENTITY_AUDIT_ACTIONS, WORKSPACE_AUDIT_ACTIONS } from './audit-actions';

type AuditEvent = Schemas['AuditEvent'];
type Page = { audit_events: AuditEvent[]; next_cursor: string | null };
interface Filter { action: string; from: string; to: string }

/** The workspace log read for a date range: at most this many pages of 100 per load. */
const RANGE_PAGES = 10;

/** A date field's day as the instants that bound it in the reader's zone: from its start, to the start of the next day. */
const dayStart = (day: string) => new Date(`${day}T00:00:00`).toISOString();
const nextDayStart = (day: string) => {
  const next = new Date(`${day}T00:00:00`);
  next.setDate(next.getDate() + 1);
  return next.toISOString();
};

export function AuditLogPage({ scope }: { scope: 'workspace' | 'tenant' }) {
  const { me } = useCurrentUser();
  const [events, setEvents] = useState<AuditEvent[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [draft, setDraft] = useState<Filter>({ action: '', from: '', to: '' });
  const [filter, setFilter] = useState<Filter>({ action: '', from: '', to: '' });
  const [message, setMessage] = useState<string | undefined>();
  const [loaded, setLoaded] = useState(false);
  const names = useNames();

  const since = filter.from ? dayStart(filter.from) : undefined;
  const until = filter.to ? nextDayStart(filter.to) : undefined;

  async function page(from?: string): Promise<Outcome<Page>> {
    const common = { limit: scope === 'workspace' && (since || until) ? 100 : 50, ...(filter.action ? { action: filter.action } : {}), ...(from ? { cursor: from } : {}) };
    return scope === 'workspace'
      ? send(() => api.GET('/v1/audit-events', { params: { query: common } }))
      : send(() => api.GET('/v1/tenants/{id}/audit-events', { params: { path: { id: me.tenant_id }, query: { ...common, ...(since ? { since } : {}), ...(until ? { until } : {}) } } }));
  }

  async function load(from?: string) {
    let next: string | null | undefined = from;
    const found: AuditEvent[] = [];
    // The identity log filters by date itself: one page. The workspace log is read on, newest
    // first, until a page reaches back past `since` (or RANGE_PAGES pages were read).
    for (let read = 0; read < (scope === 'workspace' && (since || until) ? RANGE_PAGES : 1); read++) {
      const outcome = await page(next ?? undefined);
      if (!outcome.ok) return setMessage(outcome.problem.detail);
      const inRange = outcome.data.audit_events.filter((e) => (!since || e.created_at >= since) && (!until || e.created_at < until));
      found.push(...inRange);
      next = outcome.data.next_cursor;
      const oldest = outcome.data.audit_events.at(-1)?.created_at;
      if (!next || (since && oldest && oldest < since)) {
        if (since && oldest && oldest < since) next = null;
        break;
      }
    }
    setMessage(undefined);
    setEvents((seen) => [...(from ? seen : []), ...found]);
    setCursor(next ?? null);
    setLoaded(true);
  }

  useEffect(() => void load(), [scope, filter]);

  const actions = scope === 'workspace' ? WORKSPACE_AUDIT_ACTIONS : IDENTITY_AUDIT_ACTIONS;
  const rangeWrong = Boolean(draft.from && draft.to && draft.to < draft.from);
  return (
    <main>
      <PageHeader title={scope === 'workspace' ? 'Workspace audit log' : 'Identity audit log'} />
      <form class="inline-form audit-filter" onSubmit={(e) => { e.preventDefault(); if (!rangeWrong) setFilter(draft); }}>
        <div class="field">
          <label for="audit-action">Action</label>
          <select id="audit-action" value={draft.action} onChange={(e) => setDraft({ ...draft, action: e.currentTarget.value })}>
            <option value="">All actions</option>
            {actions.map((a) => <option key={a} value={a}>{actionLabel(a)}</option>)}
          </select>
        </div>
        <div class="field">
          <label for="audit-from">From</label>
          <input id="audit-from" type="date" value={draft.from} max={draft.to || undefined} onInput={(e) => setDraft({ ...draft, from: e.currentTarget.value })} />
        </div>
        <div class="field">
          <label for="audit-to">To</label>
          <input id="audit-to" type="date" value={draft.to} min={draft.from || undefined} aria-invalid={rangeWrong ? 'true' : undefined} aria-describedby={rangeWrong ? 'audit-to-error' : undefined} onInput={(e) => setDraft({ ...draft, to: e.currentTarget.value })} />
          {rangeWrong && <p class="field-error" id="audit-to-error">The end is before the start.</p>}
        </div>
        <button type="submit">Filter</button>
      </form>
      <FormMessage message={message} />
      {loaded && events.length === 0 ? <p>No events{filter.action || filter.from || filter.to ? ' match the filter' : ''}.</p> : (
        <table class="audit stack">
          <caption class="visually-hidden">Audit events, newest first</caption>
          <thead><tr><th scope="col">When</th><th scope="col">Action</th><th scope="col">Actor</th><th scope="col">Target</th></tr></thead>
          <tbody>
            {events.map((e) => (
              <tr key={e.event_id}>
                <td data-label="When"><Timestamp value={e.created_at} /></td>
                <td class="audit-action" data-label="Action">{actionLabel(e.action)}</td>
                <td class="audit-actor" data-label="Actor">{e.actor_id ? names.user(e.actor_id) : 'system'}</td>
                <td class="audit-target" data-label="Target"><span>{targetName(e, names)} <span class="muted">({e.target_type.replaceAll('_', ' ')})</span></span></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {cursor && <button type="button" class="secondary" onClick={() => void load(cursor)}>Older events</button>}
    </main>
  );
}

interface Names { user: (id: string) => string; connection: (id: string) => string | undefined; workspace: (id: string) => string | undefined }

/** The event's own name for its target when it carries one, else the lists' name for the id, else the id. */
function targetName(event: AuditEvent, names: Names): string {
  const { payload } = event;
  for (const key of ['name', 'email', 'domain'] as const) if (typeof payload[key] === 'string') return payload[key];
  switch (event.target_type) {
    case 'user': return names.user(event.target_id);
    case 'connection': return names.connection(event.target_id) ?? event.target_id;
    case 'workspace': return names.workspace(event.target_id) ?? event.target_id;
    default: return event.target_id;
  }
}

/** Emails of the tenant's users, names of the workspace's connections and of the caller's workspaces (first 100 of each). */
function useNames(): Names {
  const [users, setUsers] = useState(new Map<string, string>());
  const [connections, setConnections] = useState(new Map<string, string>());
  const [workspaces, setWorkspaces] = useState(new Map<string, string>());
  useEffect(() => {
    void send(() => api.GET('/v1/users', { params: { query: { limit: 100 } } })).then((o) => { if (o.ok) setUsers(new Map(o.data.users.map((u) => [u.id, u.email]))); });
    void send(() => api.GET('/v1/connections', { params: { query: { limit: 100 } } })).then((o) => { if (o.ok) setConnections(new Map(o.data.connections.map((c) => [c.connection_id, c.name]))); });
    void send(() => api.GET('/v1/workspaces')).then((o) => { if (o.ok) setWorkspaces(new Map(o.data.workspaces.map((w) => [w.id, w.name]))); });
  }, []);
  return {
    user: (id) => users.get(id) ?? id,
    connection: (id) => connections.get(id),
    workspace: (id) => workspaces.get(id),
  };
}
