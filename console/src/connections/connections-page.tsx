/** The workspace's connections, with their health and runs; "New connection" for those who may write. */
import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import { send } from '../api/send';
import { FormMessage } from '../components/form-message';
import { Link } from '../routing/link';
import { useCan } from '../session/current-user';
import { Timestamp } from '../components/timestamp';

export function ConnectionsPage() {
  const canWrite = useCan('connections:write');
  const [connections, setConnections] = useState<Schemas['Connection'][] | undefined>();
  const [cursor, setCursor] = useState<string | null>(null);
  const [message, setMessage] = useState<string | undefined>();

  async function load(from?: string) {
    const outcome = await send(() => api.GET('/v1/connections', { params: { query: from ? { cursor: from } : {} } }));
    if (!outcome.ok) return setMessage(outcome.problem.detail);
    setConnections((seen) => [...(from ? seen ?? [] : []), ...outcome.data.connections]);
    setCursor(outcome.data.next_cursor);
  }

  useEffect(() => void load(), []);

  return (
    <main>
      <h1>Connections</h1>
      {canWrite && <p><Link href="/connections/new">New connection</Link></p>}
      <FormMessage message={message} />
      {connections?.length === 0 && <p>No connections yet.</p>}
      {connections && connections.length > 0 && (
        <table>
          <caption class="visually-hidden">Connections of this workspace</caption>
          <thead><tr><th scope="col">Name</th><th scope="col">Integration</th><th scope="col">Health</th><th scope="col">Last run</th><th scope="col">Next run</th></tr></thead>
          <tbody>
            {connections.map((c) => (
              <tr key={c.connection_id}>
                <td><Link href={`/connections/${encodeURIComponent(c.connection_id)}`}>{c.name}</Link></td>
                <td>{c.integration_id}</td>
                <td><span class={`status status-${c.status}`}>{c.status}</span></td>
                <td>{c.last_run_at ? <Timestamp value={c.last_run_at} /> : 'never'}</td>
                <td>{c.next_run_at ? <Timestamp value={c.next_run_at} /> : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {cursor && <button type="button" onClick={() => void load(cursor)}>Show more</button>}
    </main>
  );
}
