/**
 * The audit logs: the workspace's (`GET /v1/audit-events`, every role) and the tenant's
 * identity log (`GET /v1/tenants/{id}/audit-events`, tenant admins), newest first, paged, with
 * an action filter.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import { send, type Outcome } from '../api/send';
import { Field } from '../components/field';
import { FormMessage } from '../components/form-message';
import { useCurrentUser } from '../session/current-user';
import { Timestamp } from '../components/timestamp';

type AuditEvent = Schemas['AuditEvent'];
type Page = { audit_events: AuditEvent[]; next_cursor: string | null };

export function AuditLogPage({ scope }: { scope: 'workspace' | 'tenant' }) {
  const { me } = useCurrentUser();
  const [events, setEvents] = useState<AuditEvent[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [action, setAction] = useState('');
  const [filter, setFilter] = useState('');
  const [message, setMessage] = useState<string | undefined>();

  async function load(from?: string) {
    const query = { limit: 50, ...(filter ? { action: filter } : {}), ...(from ? { cursor: from } : {}) };
    const outcome: Outcome<Page> = scope === 'workspace'
      ? await send(() => api.GET('/v1/audit-events', { params: { query } }))
      : await send(() => api.GET('/v1/tenants/{id}/audit-events', { params: { path: { id: me.tenant_id }, query } }));
    if (!outcome.ok) return setMessage(outcome.problem.detail);
    setMessage(undefined);
    setEvents((seen) => [...(from ? seen : []), ...outcome.data.audit_events]);
    setCursor(outcome.data.next_cursor);
  }

  useEffect(() => void load(), [scope, filter]);

  return (
    <main>
      <h1>{scope === 'workspace' ? 'Workspace audit log' : 'Identity audit log'}</h1>
      <form class="inline-form" onSubmit={(e) => { e.preventDefault(); setFilter(action.trim()); }}>
        <Field id="audit-action" label="Action" hint="An exact action, such as connection_created; empty for all." value={action} onInput={(e) => setAction(e.currentTarget.value)} />
        <button type="submit">Filter</button>
      </form>
      <FormMessage message={message} />
      {events.length === 0 ? <p>No events.</p> : (
        <table class="audit">
          <caption class="visually-hidden">Audit events, newest first</caption>
          <thead><tr><th scope="col">When</th><th scope="col">Action</th><th scope="col">Actor</th><th scope="col">Target</th></tr></thead>
          <tbody>
            {events.map((e) => (
              <tr key={e.event_id}>
                <td><Timestamp value={e.created_at} /></td>
                <td class="audit-action">{e.action}</td>
                <td>{e.actor_id ?? 'system'}</td>
                <td>{e.target_type} {e.target_id}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {cursor && <button type="button" onClick={() => void load(cursor)}>Older events</button>}
    </main>
  );
}
