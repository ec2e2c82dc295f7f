/**
 * Discovery runs of a connection: run now, the history with each run's errors (what went wrong
 * and what to do), and what a chosen run changed. When the newest run was held by the
 * mass-removal guard (an error of category `safety`), a user who may run it is offered to run
 * again accepting the removals, after a confirmation that says what will be deleted.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import { send } from '../api/send';
import { ConfirmDialog } from '../components/confirm-dialog';
import { FormMessage } from '../components/form-message';
import { useCan } from '../session/current-user';
import { readableTime } from '../components/readable-time';
import { Timestamp } from '../components/timestamp';

type Run = Schemas['Run'];

export function ConnectionRunsPanel({ connectionId, onRunFinished }: { connectionId: string; onRunFinished: () => void }) {
  const canRun = useCan('connections:run');
  const [runs, setRuns] = useState<Run[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [message, setMessage] = useState<string | undefined>();
  const [changesOf, setChangesOf] = useState<string | undefined>();
  const [confirming, setConfirming] = useState(false);

  async function load(from?: string) {
    const outcome = await send(() => api.GET('/v1/connections/{id}/runs', { params: { path: { id: connectionId }, query: from ? { cursor: from } : {} } }));
    if (!outcome.ok) return setMessage(outcome.problem.detail);
    setRuns((seen) => [...(from ? seen : []), ...outcome.data.runs]);
    setCursor(outcome.data.next_cursor);
    return outcome.data.runs;
  }

  useEffect(() => void load(), [connectionId]);

  // A run in progress is polled until it finishes, so "Run now" ends on its result.
  const active = runs.some((run) => run.status === 'queued' || run.status === 'running');
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      void load().then((latest) => {
        if (latest && !latest.some((run) => run.status === 'queued' || run.status === 'running')) onRunFinished();
      });
    }, 1000);
    return () => clearInterval(timer);
  }, [active]);

  async function runNow(body?: Schemas['StartRunBody']) {
    const outcome = await send(() => api.POST('/v1/connections/{id}/runs', { params: { path: { id: connectionId } }, ...(body ? { body } : {}) }));
    if (!outcome.ok) return setMessage(outcome.problem.detail);
    setMessage(undefined);
    await load();
  }

  // Only the newest run's hold is offered: an older held run was superseded by it.
  const held = runs[0] && !active && runs[0].errors.some((error) => error.category === 'safety') ? runs[0] : undefined;

  return (
    <section aria-labelledby="runs-title">
      <h2 id="runs-title">Runs</h2>
      {canRun && <button type="button" onClick={() => void runNow()} disabled={active}>Run now</button>}
      <FormMessage message={message} />
      {runs.length === 0 ? <p>No runs yet.</p> : (
        <table>
          <caption class="visually-hidden">Runs of this connection</caption>
          <thead><tr><th scope="col">Queued</th><th scope="col">Trigger</th><th scope="col">Status</th><th scope="col">Entities</th><th scope="col">Changes</th><th scope="col">Errors</th></tr></thead>
          <tbody>
            {runs.map((run) => (
              <tr key={run.run_id}>
                <td><Timestamp value={run.queued_at} /></td>
                <td>{run.trigger}</td>
                <td class="run-status">{run.status}</td>
                <td>{Object.values(run.counts.entities).reduce((a, b) => a + b, 0)}</td>
                <td>
                  +{run.changes.entities_added} ~{run.changes.entities_changed} −{run.changes.entities_removed}{' '}
                  <button type="button" onClick={() => setChangesOf(run.run_id)} aria-label={`Changes of the run queued at ${readableTime(run.queued_at)}`}>Changes</button>
                </td>
                <td>
                  {run.errors.length === 0 ? 'none' : (
                    <ul class="run-errors">
                      {run.errors.map((error, i) => (
                        <li key={i} class={`run-error run-error-${error.category}`}>
                          <strong>{error.category}</strong>: {error.message} <span class="run-error-action">{error.action}</span>
                        </li>
                      ))}
                    </ul>
                  )}
                  {canRun && run === held && <button type="button" onClick={() => setConfirming(true)}>Run again and accept the removals</button>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {cursor && <button type="button" onClick={() => void load(cursor)}>Older runs</button>}
      {changesOf && <RunChanges connectionId={connectionId} runId={changesOf} />}
      {canRun && (
        <ConfirmDialog
          id="confirm-removals"
          open={confirming && held !== undefined}
          title="Accept the removals?"
          confirmLabel="Run and delete them"
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void runNow({ confirm_removals: true });
          }}
        >
          <p>The last run held back removals because it found far fewer entities than before:</p>
          <ul>{held?.errors.filter((error) => error.category === 'safety').map((error, i) => <li key={i}>{error.message}</li>)}</ul>
          <p>A new run will start and delete from the inventory every entity it does not find. Do this only if they really left the provider; a token with fewer rights or a changed scope looks the same.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

function RunChanges({ connectionId, runId }: { connectionId: string; runId: string }) {
  const [changes, setChanges] = useState<Schemas['RunChange'][]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [message, setMessage] = useState<string | undefined>();

  async function load(from?: string) {
    const outcome = await send(() => api.GET('/v1/connections/{id}/runs/{run_id}/changes', { params: { path: { id: connectionId, run_id: runId }, query: from ? { cursor: from } : {} } }));
    if (!outcome.ok) return setMessage(outcome.problem.detail);
    setChanges((seen) => [...(from ? seen : []), ...outcome.data.changes]);
    setCursor(outcome.data.next_cursor);
  }
  useEffect(() => void load(), [runId]);

  return (
    <div>
      <h3>Changes of run {runId}</h3>
      <FormMessage message={message} />
      {changes.length === 0 ? <p>No changes.</p> : (
        <ul>{changes.map((c, i) => <li key={i}>{c.change} {c.kind} {c.source_id}{c.to_source_id ? ` → ${c.to_source_id}` : ''}</li>)}</ul>
      )}
      {cursor && <button type="button" onClick={() => void load(cursor)}>More changes</button>}
    </div>
  );
}
