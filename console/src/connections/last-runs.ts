/**
 * The newest run of each connection (`GET /v1/connections/{id}/runs?limit=1`, newest first):
 * the connection itself carries only `last_run_at` and a health that a test can make "healthy"
 * while the last run failed, so the list and the home page read the run to say how it went.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import { send } from '../api/send';

export type Run = Schemas['Run'];

/** id → its newest run, null when it never ran; an id is missing until its answer came. */
export function useLastRuns(connections: Schemas['Connection'][] | undefined): Map<string, Run | null> {
  const [runs, setRuns] = useState<Map<string, Run | null>>(new Map());
  // A connection whose last run moved on (its last_run_at) is read again.
  const ids = (connections ?? []).map((c) => `${c.connection_id}@${c.last_run_at ?? ''}`).join(',');
  useEffect(() => {
    let current = true;
    for (const c of connections ?? []) {
      void send(() => api.GET('/v1/connections/{id}/runs', { params: { path: { id: c.connection_id }, query: { limit: 1 } } })).then((outcome) => {
        if (!current || !outcome.ok) return;
        setRuns((seen) => new Map(seen).set(c.connection_id, outcome.data.runs[0] ?? null));
      });
    }
    return () => { current = false; };
  }, [ids]);
  return runs;
}

/** A daily schedule that should have fired over an hour ago and has not: the scheduler or the connection needs a look. */
export function isOverdue(connection: Schemas['Connection'], now: number = Date.now()): boolean {
  if (!connection.next_run_at) return false;
  return new Date(connection.next_run_at).getTime() < now - 3_600_000;
}
