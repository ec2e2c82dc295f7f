/**
 * One connection: its details and health, and the panels the caller's permissions allow
 * (test, runs, edit, delete), the test history, plus the inventory its runs discovered.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import { send } from '../api/send';
import { FormMessage } from '../components/form-message';
import { Link } from '../routing/link';
import { useCan } from '../session/current-user';
import { ConnectionDeleteButton } from './connection-delete-button';
import { ConnectionEditForm } from './connection-edit-form';
import { ConnectionInventoryPanel } from './connection-inventory-panel';
import { ConnectionRunsPanel } from './connection-runs-panel';
import { ConnectionTestPanel } from './connection-test-panel';
import { ConnectionTestsPanel } from './connection-tests-panel';
import { LastRun } from './last-run';
import { useLastRuns } from './last-runs';
import { PageHeader } from '../components/page-header';
import { StatusBadge } from '../components/status-badge';
import { Timestamp } from '../components/timestamp';

export function ConnectionPage({ id }: { id: string }) {
  const canWrite = useCan('connections:write');
  const canTest = useCan('connections:test');
  const [connection, setConnection] = useState<{ value: Schemas['Connection']; etag: string } | undefined>();
  const [integrations, setIntegrations] = useState<Schemas['Integration'][]>([]);
  const [message, setMessage] = useState<string | undefined>();
  // Bumped when a run finishes or a save lands, so the inventory and the form reload.
  const [version, setVersion] = useState(0);
  const lastRuns = useLastRuns(connection ? [connection.value] : undefined);

  async function load() {
    const outcome = await send(() => api.GET('/v1/connections/{id}', { params: { path: { id } } }));
    if (!outcome.ok) return setMessage(outcome.problem.detail);
    setConnection({ value: outcome.data, etag: outcome.response.headers.get('etag') ?? '' });
    setVersion((v) => v + 1);
  }

  useEffect(() => {
    void load();
    void send(() => api.GET('/v1/integrations')).then((outcome) => {
      if (outcome.ok) setIntegrations(outcome.data.integrations);
    });
  }, [id]);

  if (!connection) return <main><h1>Connection</h1><FormMessage message={message} />{!message && <p role="status">Loading…</p>}</main>;
  const c = connection.value;
  const integration = integrations.find((i) => i.integration_id === c.integration_id);
  return (
    <main>
      <p><Link href="/connections">All connections</Link></p>
      <PageHeader title={c.name} />
      <dl class="details">
        <dt>Integration</dt><dd>{integration?.name ?? c.integration_id}</dd>
        <dt>Health</dt><dd><StatusBadge status={c.status} id="connection-status" /></dd>
        <dt>Schedule</dt><dd>Daily at {String(c.schedule.hour).padStart(2, '0')}:{String(c.schedule.minute).padStart(2, '0')} ({c.schedule.timezone})</dd>
        <dt>Last run</dt><dd><LastRun connection={c} run={lastRuns.get(c.connection_id)} withReason /></dd>
        <dt>Next run</dt><dd>{c.next_run_at ? <Timestamp value={c.next_run_at} /> : '—'}</dd>
      </dl>
      {canTest && <ConnectionTestPanel connectionId={c.connection_id} onTested={() => void load()} />}
      <ConnectionTestsPanel connectionId={c.connection_id} version={version} />
      <ConnectionRunsPanel connectionId={c.connection_id} onRunFinished={() => void load()} />
      <ConnectionInventoryPanel connectionId={c.connection_id} version={version} />
      {canWrite && integration && (
        <ConnectionEditForm
          key={version}
          connection={c}
          etag={connection.etag}
          integration={integration}
          onSaved={(value, etag) => setConnection({ value, etag })}
          onReload={() => void load()}
        />
      )}
      {canWrite && <ConnectionDeleteButton connectionId={c.connection_id} name={c.name} />}
    </main>
  );
}
