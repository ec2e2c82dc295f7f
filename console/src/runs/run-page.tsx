/**
 * One discovery run, `/connections/{id}/runs/{run_id}`: named by its connection, trigger and
 * time; its status, duration and, while it runs, its progress (read again every second); what
 * it found per kind; its errors with what to do about each; the mass-removal guard's
 * confirmation when this is the connection's newest run and the guard held it; and its changes.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import { send } from '../api/send';
import { FormMessage } from '../components/form-message';
import { PageHeader } from '../components/page-header';
import { StatusBadge } from '../components/status-badge';
import { Timestamp } from '../components/timestamp';
import { Link } from '../routing/link';
import { navigate } from '../routing/router';
import { useCan } from '../session/current-user';
import { AcceptRemovalsButton, isHeldByGuard } from './accept-removals';
import { RunChanges } from './run-changes';
import { RunProgress } from './run-progress';
import { formatDuration, isActive, runDurationSeconds, runTitle, TRIGGER_LABEL } from './run-text';

type Run = Schemas['Run'];

export const runPath = (connectionId: string, runId: string) => `/connections/${encodeURIComponent(connectionId)}/runs/${encodeURIComponent(runId)}`;

export function RunPage({ connectionId, runId }: { connectionId: string; runId: string }) {
  const canRun = useCan('connections:run');
  const [connection, setConnection] = useState<Schemas['Connection'] | undefined>();
  const [run, setRun] = useState<Run | undefined>();
  const [newest, setNewest] = useState<string | undefined>();
  const [message, setMessage] = useState<string | undefined>();
  const [now, setNow] = useState(Date.now());

  async function loadRun() {
    const outcome = await send(() => api.GET('/v1/connections/{id}/runs/{run_id}', { params: { path: { id: connectionId, run_id: runId } } }));
    if (!outcome.ok) return setMessage(outcome.problem.detail);
    setRun(outcome.data);
    setNow(Date.now());
    return outcome.data;
  }

  async function loadNewest() {
    const outcome = await send(() => api.GET('/v1/connections/{id}/runs', { params: { path: { id: connectionId }, query: { limit: 1 } } }));
    if (outcome.ok) setNewest(outcome.data.runs[0]?.run_id);
  }

  useEffect(() => {
    void send(() => api.GET('/v1/connections/{id}', { params: { path: { id: connectionId } } })).then((outcome) => {
      if (outcome.ok) setConnection(outcome.data);
      else setMessage(outcome.problem.detail);
    });
    void loadRun();
    void loadNewest();
  }, [connectionId, runId]);

  const active = run !== undefined && isActive(run);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => void loadRun(), 1000);
    return () => clearInterval(timer);
  }, [active, runId]);

  async function runAcceptingRemovals() {
    const outcome = await send(() => api.POST('/v1/connections/{id}/runs', { params: { path: { id: connectionId } }, body: { confirm_removals: true } }));
    if (!outcome.ok) return setMessage(outcome.problem.detail);
    navigate(runPath(connectionId, outcome.data.run_id));
  }

  if (!run || !connection) return <main><h1>Run</h1><FormMessage message={message} />{!message && <p role="status">Loading…</p>}</main>;
  const duration = runDurationSeconds(run, now);
  const totalChanges = Object.values(run.changes).reduce((a, b) => a + b, 0);
  const held = canRun && !active && run.run_id === newest && isHeldByGuard(run);
  return (
    <main>
      <p><Link href={`/connections/${encodeURIComponent(connectionId)}`}>{connection.name}</Link></p>
      <PageHeader title={runTitle(connection.name, run)} />
      <FormMessage message={message} />
      <dl class="details">
        <dt>Status</dt><dd><span role="status" id="run-status"><StatusBadge status={run.status} /></span></dd>
        <dt>Trigger</dt><dd>{TRIGGER_LABEL[run.trigger]}{run.confirm_removals ? ', accepting removals' : ''}</dd>
        <dt>Queued</dt><dd><Timestamp value={run.queued_at} /></dd>
        <dt>Started</dt><dd>{run.started_at ? <Timestamp value={run.started_at} /> : 'not yet'}</dd>
        <dt>Finished</dt><dd>{run.finished_at ? <Timestamp value={run.finished_at} /> : 'not yet'}</dd>
        <dt>Duration</dt><dd id="run-duration">{duration === undefined ? '—' : `${formatDuration(duration)}${active ? ' so far' : ''}`}</dd>
      </dl>
      {run.errors.length > 0 && (
        <section aria-labelledby="run-errors-title">
          <h2 id="run-errors-title">{run.status === 'failed' ? 'Why it failed' : 'What it could not do'}</h2>
          <ul class="run-errors">
            {run.errors.map((error, i) => (
              <li key={i} class={`run-error run-error-${error.category}`}>
                <p><strong>{error.category}</strong>: {error.message}</p>
                <p class="run-error-action"><strong>How to fix it:</strong> {error.action}</p>
              </li>
            ))}
          </ul>
          {held && <AcceptRemovalsButton held={run} onConfirmed={() => void runAcceptingRemovals()} />}
        </section>
      )}
      <RunProgress progress={run.progress} active={active} />
      <RunCounts run={run} />
      {!active && <RunChanges connectionId={connectionId} runId={run.run_id} total={totalChanges} />}
    </main>
  );
}

function RunCounts({ run }: { run: Run }) {
  const rows = [
    ...Object.entries(run.counts.entities).map(([kind, n]) => ({ kind, n, what: 'Entities' })),
    ...Object.entries(run.counts.relationships).map(([kind, n]) => ({ kind, n, what: 'Relationships' })),
  ];
  const c = run.changes;
  return (
    <section aria-labelledby="run-counts-title">
      <h2 id="run-counts-title">What it found</h2>
      <p>
        Entities: {c.entities_added} added, {c.entities_changed} changed, {c.entities_removed} removed.
        Relationships: {c.relationships_added} added, {c.relationships_removed} removed.
      </p>
      {rows.length === 0 ? <p>Nothing counted yet.</p> : (
        <table class="run-counts stack">
          <caption>Count by kind</caption>
          <thead><tr><th scope="col">Kind</th><th scope="col">Of</th><th scope="col">Count</th></tr></thead>
          <tbody>{rows.map((row) => <tr key={row.kind}><th scope="row" data-label="Kind">{row.kind}</th><td data-label="Of">{row.what}</td><td data-label="Count">{row.n}</td></tr>)}</tbody>
        </table>
      )}
    </section>
  );
}
