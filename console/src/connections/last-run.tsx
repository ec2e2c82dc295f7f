/**
 * A connection's last run as the lists and the connection's page show it: its status and when,
 * and, when it failed or was partial, its first reason, so a passing test's "healthy" never hides
 * a failed run.
 */
import type { Schemas } from '../api/client';
import { StatusBadge } from '../components/status-badge';
import { Timestamp } from '../components/timestamp';
import { Link } from '../routing/link';
import { runPath } from '../runs/run-page';

export function LastRun({ connection, run, withReason = false }: { connection: Schemas['Connection']; run: Schemas['Run'] | null | undefined; withReason?: boolean }) {
  if (run === null || (!run && !connection.last_run_at)) return <span class="muted">never</span>;
  if (!run) return connection.last_run_at ? <Timestamp value={connection.last_run_at} /> : null;
  const reason = withReason && (run.status === 'failed' || run.status === 'partial') ? run.errors[0]?.message : undefined;
  return (
    <span class="last-run">
      <StatusBadge status={run.status} /> <Link href={runPath(connection.connection_id, run.run_id)}><Timestamp value={run.finished_at ?? run.started_at ?? run.queued_at} /></Link>
      {reason && <span class="last-run-reason">: {reason}</span>}
    </span>
  );
}
