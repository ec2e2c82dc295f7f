/**
 * The last step of a run: its verdict, the connection's health and last run, when each track
 * was last read completely (the inventory's `last_seen_at`), and the audit event, committed in
 * one transaction that also releases the connection for its next run.
 */
import type { Deps } from '../deps';
import { updateAccessGraph } from '../access/run-graph-upkeep';
import { auditEventPut } from '../audit/audit-log';
import { entityKinds, relationshipKinds } from '../connectors/discovery';
import { metricNames } from '../observability';
import { failedConditionIndexes, isConditionFailure } from '../store/client';
import { keys } from '../store/keys';
import type { RunProgress, RunRecord, RunStatus } from '../store/records';
import type { TransactItem } from '../store/table-client';
import type { InventoryScope } from './inventory-writer';
import { completeNameRoster } from './entity-search';
import { loadSeen } from './run-checkpoint';
import { sweptTrackCounts, TRACK_COUNT_PREFIX } from './removal-guard';

/**
 * `failed` when nothing usable came back (a track failed: credentials, network, unreadable
 * configuration; or every track was refused); `partial` when some tracks were refused, the
 * mass-removal guard held a track, or relationships were refused for a missing end;
 * `succeeded` when every track was read to the end and applied.
 */
export function verdictOf(progress: Pick<RunProgress, 'tracks' | 'held' | 'dangling'>): Exclude<RunStatus, 'queued' | 'running'> {
  const statuses = Object.values(progress.tracks).map((t) => t.status);
  if (statuses.length === 0 || statuses.some((s) => s === 'failed' || s === 'pending') || statuses.every((s) => s === 'refused')) return 'failed';
  const incomplete = statuses.some((s) => s === 'refused') || Object.keys(progress.held ?? {}).length > 0 || (progress.dangling ?? 0) > 0;
  return incomplete ? 'partial' : 'succeeded';
}

const metricOf = { succeeded: metricNames.runSucceeded, partial: metricNames.runPartial, failed: metricNames.runFailed } as const;

/** Prefix of the inventory-meta attribute that holds when a track was last read completely. */
export const TRACK_SEEN_PREFIX = 'seen#';

export async function finalizeRun(deps: Deps, scope: InventoryScope, run: RunRecord, reached: RunProgress, errors: RunRecord['errors'], step: number): Promise<void> {
  const status = verdictOf(reached);
  const finishedAt = await updateAccessGraph(deps, scope, run.run_id, deps.clock.now().toISOString());
  const progress: RunProgress = { ...reached, phase: 'done', step: step + 1 };
  if (Object.keys(progress.counts.entities).length + Object.keys(progress.counts.relationships).length === 0) {
    // No sweep ran (the run failed): count what it saw all the same.
    for (const kind of [...entityKinds, ...relationshipKinds]) {
      const seen = (await loadSeen(deps, scope, run.run_id, kind)).size;
      if (seen > 0) ((relationshipKinds as readonly string[]).includes(kind) ? progress.counts.relationships : progress.counts.entities)[kind] = seen;
    }
  }
  const { tenantId: t, workspaceId: w, connectionId: c } = scope;
  const runUpdate = deps.table.updateItem({
    Key: keys.connectionRun(t, w, c, run.run_id),
    UpdateExpression: 'SET #status = :status, finished_at = :finished, progress = :progress, errors = :errors REMOVE GSI1PK, GSI1SK',
    ConditionExpression: 'progress.#step = :step AND #status IN (:queued, :running)',
    ExpressionAttributeNames: { '#status': 'status', '#step': 'step' },
    ExpressionAttributeValues: { ':status': status, ':finished': finishedAt, ':progress': progress, ':errors': errors, ':step': step, ':queued': 'queued', ':running': 'running' },
  });
  const connectionUpdate = deps.table.updateItem({
    Key: keys.connection(t, w, c),
    UpdateExpression: 'SET #status = :health, last_run_at = :finished, updated_at = :finished, version = version + :one REMOVE active_run_id',
    ConditionExpression: 'active_run_id = :run',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':health': status === 'succeeded' ? 'healthy' : 'degraded', ':finished': finishedAt, ':one': 1, ':run': run.run_id },
  });
  const audit = auditEventPut(deps, {
    log: 'workspace', tenantId: t, workspaceId: w, actorId: null,
    action: 'connection_run_finished', targetType: 'connection', targetId: c,
    payload: { run_id: run.run_id, status, changes: progress.changes, error_categories: [...new Set(errors.map((e) => e.category))] },
  });
  const items: TransactItem[] = [runUpdate, connectionUpdate, audit.item, ...(status === 'succeeded' ? await completeNameRoster(deps, scope) : [])];
  // A track held by the mass-removal guard was not reconciled: its times and count stay as they were.
  const held = progress.held ?? {};
  const doneTracks = Object.entries(progress.tracks).filter(([name, track]) => track.status === 'done' && held[name] === undefined).map(([name]) => name);
  const counts = Object.entries(sweptTrackCounts(progress));
  if (status !== 'failed' && doneTracks.length > 0) {
    items.push(
      deps.table.updateItem({
        Key: keys.inventoryMeta(t, w, c),
        UpdateExpression: `SET ${[...doneTracks.map((_, i) => `#t${i} = :finished`), ...counts.map((_, i) => `#c${i} = :c${i}`)].join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries<string>([
          ...doneTracks.map((name, i): [string, string] => [`#t${i}`, `${TRACK_SEEN_PREFIX}${name}`]),
          ...counts.map(([name], i): [string, string] => [`#c${i}`, `${TRACK_COUNT_PREFIX}${name}`]),
        ]),
        ExpressionAttributeValues: { ':finished': finishedAt, ...Object.fromEntries(counts.map(([, count], i) => [`:c${i}`, count])) },
      }),
    );
  }
  try {
    await deps.table.transact(items);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const failed = failedConditionIndexes(error);
    if (failed.includes(0)) return; // finalized already (a duplicate delivery)
    // The connection was deleted (or no longer names this run): finish the run record alone.
    await deps.table.transact([runUpdate, audit.item]).catch((again: unknown) => {
      if (!isConditionFailure(again)) throw again;
    });
  }
  deps.observability.count(metricOf[status]);
  deps.observability.logger.info('run finished', { run_id: run.run_id, connection_id: c, status, changes: progress.changes, stats: progress.stats });
}
