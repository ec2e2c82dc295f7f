/**
 * The workspace's connections: health, how the last run went (its status as a badge, and when),
 * the next run; "New connection" for those who may write. A list of cards on a phone.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import { send } from '../api/send';
import { DataTable } from '../components/data-table';
import { FormMessage } from '../components/form-message';
import { ShowMore } from '../components/show-more';
import { PageHeader } from '../components/page-header';
import { StatusBadge } from '../components/status-badge';
import { Timestamp } from '../components/timestamp';
import { Link } from '../routing/link';
import { useCan } from '../session/current-user';
import { LastRun } from './last-run';
import { useLastRuns } from './last-runs';

export function ConnectionsPage() {
  const canWrite = useCan('connections:write');
  const [connections, setConnections] = useState<Schemas['Connection'][] | undefined>();
  const [cursor, setCursor] = useState<string | null>(null);
  const list = useRef<HTMLDivElement>(null);
  const [message, setMessage] = useState<string | undefined>();
  const lastRuns = useLastRuns(connections);

  async function load(from?: string) {
    const outcome = await send(() => api.GET('/v1/connections', { params: { query: from ? { cursor: from } : {} } }));
    if (!outcome.ok) return setMessage(outcome.problem.detail);
    setConnections((seen) => [...(from ? seen ?? [] : []), ...outcome.data.connections]);
    setCursor(outcome.data.next_cursor);
  }

  useEffect(() => void load(), []);

  return (
    <main>
      <PageHeader title="Connections">
        {canWrite && <Link href="/connections/new" class="button">New connection</Link>}
      </PageHeader>
      <FormMessage message={message} />
      {connections?.length === 0 && <p>No connections yet.</p>}
      {connections && connections.length > 0 && (
        <div ref={list}>
        <DataTable
          caption="Connections of this workspace"
          rows={connections}
          rowKey={(c) => c.connection_id}
          columns={[
            { header: 'Name', cell: (c) => <Link href={`/connections/${encodeURIComponent(c.connection_id)}`}>{c.name}</Link> },
            { header: 'Integration', cell: (c) => c.integration_id },
            { header: 'Health', cell: (c) => <StatusBadge status={c.status} /> },
            { header: 'Last run', cell: (c) => <LastRun connection={c} run={lastRuns.get(c.connection_id)} /> },
            { header: 'Next run', cell: (c) => (c.next_run_at ? <Timestamp value={c.next_run_at} /> : '—') },
          ]}
        />
        </div>
      )}
      <ShowMore shown={connections?.length ?? 0} noun={['connection', 'connections']} more={cursor !== null} rows={list} onMore={() => load(cursor ?? undefined)} />
    </main>
  );
}

