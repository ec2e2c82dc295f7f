/**
 * How a run is named and measured for people: a heading from the connection's name, the trigger
 * and the time it was queued (never the raw run id), and its duration. Plain TypeScript, so
 * the browser tests can compute the same text.
 */
import { readableTime } from '../components/readable-time';

export interface RunTimes {
  trigger: 'schedule' | 'manual';
  queued_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export const TRIGGER_LABEL: Record<RunTimes['trigger'], string> = { manual: 'Manual run', schedule: 'Scheduled run' };

/** "Okta: Manual run, Nov 28, 2026, 7:45:41 PM UTC". */
export function runTitle(connectionName: string, run: RunTimes): string {
  return `${connectionName}: ${TRIGGER_LABEL[run.trigger]}, ${readableTime(run.queued_at)}`;
}

/** From its start to its end (or to `now` while it runs); undefined before it starts. */
export function runDurationSeconds(run: RunTimes, now: number): number | undefined {
  if (!run.started_at) return undefined;
  const end = run.finished_at ? Date.parse(run.finished_at) : now;
  return Math.max(0, Math.round((end - Date.parse(run.started_at)) / 1000));
}

/** "45 s", "3 min 5 s", "2 h 4 min". */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export const isActive = (run: { status: string }) => run.status === 'queued' || run.status === 'running';
