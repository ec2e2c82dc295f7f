/**
 * Discovery runs of a connection: run now (then the run's progress here while it runs, and a
 * link to its page), the history with each run's errors (what went wrong and what to do), each
 * run linked to its own page (its changes, counts, progress). When the newest run was held by
 * the mass-removal guard (an error of category `safety`), a user who may run it is offered to
 * run again accepting the removals, after a confirmation that says what will be deleted.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import { send } from '../api/send';
import { FormMessage } from '../components/form-message';
import { ShowMore } from '../components/show-more';
import { StatusBadge } from '../components/status-badge';
import { useCan } from '../session/current-user';
import { readableTime } from '../components/readable-time';
import { Link } from '../routing/link';
import { AcceptRemovalsButton, isHeldByGuard } from '../runs/accept-removals';
import { runPath } from '../runs/run-page';
import { progressSummary } from '../runs/run-progress';
import { isActive, TRIGGER_LABEL } from '../runs/run-text';

type Run = Schemas['Run'];

export function ConnectionRunsPanel({ connectionId, onRunFinished }: { connectionId: string; onRunFinished: () => void }) {
  const canRun = useCan('connections:run');
  const [runs, setRuns] = useState<Run[]>([]);
  const table = useRef<HTMLTableElement>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [message, setMessage] = useState<string | undefined>();
  const [started, setStarted] = useState<string | undefined>();

  async function load(from?: string) {
    const outcome = await send(() => api.GET('/v1/connections/{id}/runs', { params: { path: { id: connectionId }, query: from ? { cursor: from } : {} } }));
    if (!outcome.ok) return setMessage(outcome.problem.detail);
    setRuns((seen) => [...(from ? seen : []), ...outcome.data.runs]);
    setCursor(outcome.data.next_cursor);
    return outcome.data.runs;
  }

  useEffect(() => void load(), [connectionId]);

  // A run in progress is polled until it finishes, so "Run now" ends on its result.
  const activeRun = runs.find(isActive);
  const active = activeRun !== undefined;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      void load().then((latest) => {
        if (latest && !latest.some(isActive)) onRunFinished();
      });
    }, 1000);
    return () => clearInterval(timer);
  }, [active]);

  async function runNow(body?: Schemas['StartRunBody']) {
    const outcome = await send(() => api.POST('/v1/connections/{id}/runs', { params: { path: { id: connectionId } }, ...(body ? { body } : {}) }));
    if (!outcome.ok) return setMessage(outcome.problem.detail);
    setMessage(undefined);
    setStarted(outcome.data.run_id);
    await load();
  }

  // Only the newest run's hold is offered: an older held run was superseded by it.
  const held = runs[0] && !active && isHeldByGuard(runs[0]) ? runs[0] : undefined;
  const startedRun = runs.find((run) => run.run_id === started);

  return (
    <section aria-labelledby="runs-title">
      <h2 id="runs-title">Runs</h2>
      {canRun && <button type="button" onClick={() => void runNow()} disabled={active}>Run now</button>}
      <FormMessage message={message} />
      {activeRun && (
        <p class="run-live">
          {activeRun.run_id === started ? 'Run started' : 'A run is in progress'} ({activeRun.status}). {progressSummary(activeRun.progress)}.{' '}
          <Link href={runPath(connectionId, activeRun.run_id)}>Watch the run</Link>
        </p>
      )}
      {!activeRun && startedRun && (
        <p class="run-live" role="status">
          The run you started {startedRun.status === 'succeeded' ? 'succeeded' : `ended ${startedRun.status}`}. <Link href={runPath(connectionId, startedRun.run_id)}>See the run</Link>
        </p>
      )}
      {runs.length === 0 ? <p>No runs yet.</p> : (
        <table class="stack" ref={table}>
          <caption class="visually-hidden">Runs of this connection</caption>
          <thead><tr><th scope="col">Queued</th><th scope="col">Trigger</th><th scope="col">Status</th><th scope="col">Entities</th><th scope="col">Changes</th><th scope="col">Errors</th></tr></thead>
          <tbody>
            {runs.map((run) => (
              <tr key={run.run_id}>
                <td data-label="Queued"><Link href={runPath(connectionId, run.run_id)}><time dateTime={run.queued_at} title={run.queued_at}>{readableTime(run.queued_at)}</time></Link></td>
                <td data-label="Trigger">{TRIGGER_LABEL[run.trigger]}</td>
                <td class="run-status" data-label="Status"><StatusBadge status={run.status} /></td>
                <td data-label="Entities">{Object.values(run.counts.entities).reduce((a, b) => a + b, 0)}</td>
                <td data-label="Changes">{run.changes.entities_added} added, {run.changes.entities_changed} changed, {run.changes.entities_removed} removed</td>
                <td data-label="Errors">
                  <div>
                    {run.errors.length === 0 ? 'none' : (
                      <ul class="run-errors">
                        {run.errors.map((error, i) => (
                          <li key={i} class={`run-error run-error-${error.category}`}>
                            <strong>{error.category}</strong>: {error.message} <span class="run-error-action">{error.action}</span>
                          </li>
                        ))}
                      </ul>
                    )}
                    {canRun && run === held && <AcceptRemovalsButton held={held} onConfirmed={() => void runNow({ confirm_removals: true })} />}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ShowMore shown={runs.length} noun={['run', 'runs']} label="Show older runs" more={cursor !== null} rows={table} onMore={() => load(cursor ?? undefined)} />
    </section>
  );
}

