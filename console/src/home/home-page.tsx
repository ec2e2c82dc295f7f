/**
 * The home page: what needs attention in this workspace. Connections whose last run failed or
 * was partial (with the run's first error and its fix), connections that never ran or whose
 * schedule is overdue, and the most recent access changes (who gained or lost what), by name.
 * Everything from the public API: the connection list, each connection's newest run, and
 * `GET /v1/access-changes`.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import type { paths } from '../api/schema';
import { send } from '../api/send';
import { FormMessage } from '../components/form-message';
import { PageHeader } from '../components/page-header';
import { StatusBadge } from '../components/status-badge';
import { Timestamp } from '../components/timestamp';
import { isOverdue, useLastRuns, type Run } from '../connections/last-runs';
import { Link } from '../routing/link';

type Connection = Schemas['Connection'];
type AccessChange = paths['/v1/access-changes']['get']['responses'][200]['content']['application/json']['access_changes'][number];

const RECENT_CHANGES = 10;

export function HomePage() {
  const [connections, setConnections] = useState<Connection[] | undefined>();
  const [changes, setChanges] = useState<AccessChange[] | undefined>();
  const [message, setMessage] = useState<string | undefined>();
  const lastRuns = useLastRuns(connections);

  useEffect(() => {
    void send(() => api.GET('/v1/connections', { params: { query: { limit: 100 } } })).then((outcome) => {
      if (outcome.ok) setConnections(outcome.data.connections);
      else setMessage(outcome.problem.detail);
    });
    void send(() => api.GET('/v1/access-changes', { params: { query: { limit: RECENT_CHANGES } } })).then((outcome) => {
      if (outcome.ok) setChanges(outcome.data.access_changes);
      else setMessage(outcome.problem.detail);
    });
  }, []);

  const loaded = connections && connections.every((c) => lastRuns.has(c.connection_id));
  const troubled = (connections ?? []).flatMap((c) => {
    const run = lastRuns.get(c.connection_id);
    return run && (run.status === 'failed' || run.status === 'partial') ? [{ connection: c, run }] : [];
  });
  const idle = (connections ?? []).filter((c) => lastRuns.get(c.connection_id) === null || isOverdue(c));
  const nameOf = (id: string) => connections?.find((c) => c.connection_id === id)?.name ?? id;

  return (
    <main>
      <PageHeader title="Home" />
      <FormMessage message={message} />
      <section aria-labelledby="attention-title">
        <h2 id="attention-title">Needs attention</h2>
        {!loaded ? <p role="status">Loading…</p> : troubled.length === 0 && idle.length === 0 ? (
          <p>{connections.length === 0 ? <>No connections yet. <Link href="/connections/new">Create the first one</Link>.</> : 'Every connection ran and its last run succeeded.'}</p>
        ) : (
          <ul class="attention">
            {troubled.map(({ connection, run }) => <TroubledRun key={connection.connection_id} connection={connection} run={run} />)}
            {idle.map((c) => (
              <li key={c.connection_id}>
                <Link href={`/connections/${encodeURIComponent(c.connection_id)}`}>{c.name}</Link>{' '}
                {lastRuns.get(c.connection_id) === null
                  ? <><StatusBadge status="never_run" label="never run" /> <span>has never run.</span> {c.next_run_at && <>Its first scheduled run is <Timestamp value={c.next_run_at} />.</>}</>
                  : <><StatusBadge status="overdue" /> <span>was due to run <Timestamp value={c.next_run_at!} /> and has not.</span></>}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="changes-title">
        <h2 id="changes-title">Recent access changes</h2>
        {!changes ? <p role="status">Loading…</p> : changes.length === 0 ? <p>No access changes yet. A connection's first run sets the baseline; the runs after it record who gains or loses access.</p> : (
          <ul class="access-changes">
            {changes.map((c) => (
              <li key={`${c.run_id}-${c.change}-${c.person.person_id}-${c.target.entity_id}-${c.via.entity_id}`}>
                <StatusBadge status={c.change} />{' '}
                <strong>{c.person.display_name}</strong> {c.change} <strong>{c.target.display_name}</strong>{' '}
                <span class="muted">({c.target.kind.toLowerCase()}, via {c.via.display_name}, in {nameOf(c.connection_id)})</span>{' '}
                <Timestamp value={c.at} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </main>
  );
}

function TroubledRun({ connection, run }: { connection: Connection; run: Run }) {
  const first = run.errors[0];
  return (
    <li>
      <Link href={`/connections/${encodeURIComponent(connection.connection_id)}`}>{connection.name}</Link>{' '}
      <StatusBadge status={run.status} /> <span>last run {run.status === 'failed' ? 'failed' : 'was partial'}</span>{' '}
      <Timestamp value={run.finished_at ?? run.queued_at} />
      {first && (
        <p class="run-reason">
          {first.message}
          {first.action && <span class="run-error-action">What to do: {first.action}</span>}
          {run.errors.length > 1 && <span class="muted"> (and {run.errors.length - 1} more)</span>}
        </p>
      )}
    </li>
  );
}
