/**
 * Run records: the history of a connection's discovery runs and their public shape. A run's
 * record also holds its checkpoint (cursors, sweep position), which never leaves the service;
 * the API shows the progress drawn from it (run-progress.ts).
 */
import type { Deps } from '../deps';
import { NotFoundError } from '../errors';
import type { WorkspaceScope } from '../identity/principal';
import { keys } from '../store/keys';
import type { RunChangeCounts, RunProgress, RunProgressView, RunRecord } from '../store/records';
import type { Page, PageRequest } from '../store/table-client';
import { currentProgress } from './run-progress';

export const noChanges = (): RunChangeCounts => ({ entities_added: 0, entities_removed: 0, entities_changed: 0, relationships_added: 0, relationships_removed: 0 });

export function initialProgress(trackNames: readonly string[]): RunProgress {
  return {
    step: 0,
    phase: 'read',
    tracks: Object.fromEntries(trackNames.map((name) => [name, { status: 'pending', cursor: null, pages: 0 }])),
    sweep: { stage: 0, ranges: {} },
    changes: noChanges(),
    counts: { entities: {}, relationships: {} },
    stats: { provider_requests: 0, throttled_ms: 0, items_written: 0, items_deleted: 0 },
  };
}

export const isActive = (run: Pick<RunRecord, 'status'>) => run.status === 'queued' || run.status === 'running';

export interface RunView {
  run_id: string;
  connection_id: string;
  trigger: RunRecord['trigger'];
  status: RunRecord['status'];
  queued_at: string;
  started_at: string | null;
  finished_at: string | null;
  counts: RunProgress['counts'];
  changes: RunChangeCounts;
  errors: RunRecord['errors'];
  progress: RunProgressView;
  confirm_removals: boolean;
  stats: RunProgress['stats'] & { steps: number; dangling_relationships: number };
}

export function toRunView(run: RunRecord): RunView {
  return {
    run_id: run.run_id,
    connection_id: run.connection_id,
    trigger: run.trigger,
    status: run.status,
    queued_at: run.queued_at,
    started_at: run.started_at,
    finished_at: run.finished_at,
    counts: run.progress.counts,
    changes: run.progress.changes,
    errors: run.errors,
    progress: currentProgress(run),
    confirm_removals: run.confirm_removals === true,
    stats: { ...run.progress.stats, steps: run.progress.step, dangling_relationships: run.progress.dangling ?? 0 },
  };
}

export async function getRun(deps: Deps, scope: WorkspaceScope, connectionId: string, runId: string): Promise<RunRecord> {
  const run = await deps.table.get<RunRecord>(keys.connectionRun(scope.tenantId, scope.workspaceId, connectionId, runId));
  if (!run) throw new NotFoundError('run');
  return run;
}

export async function listRuns(deps: Deps, scope: WorkspaceScope, connectionId: string, page: PageRequest): Promise<Page<RunView>> {
  const result = await deps.table.queryPrefix<RunRecord>(keys.connectionRuns(scope.tenantId, scope.workspaceId, connectionId), page);
  return { items: result.items.map(toRunView), nextCursor: result.nextCursor };
}
