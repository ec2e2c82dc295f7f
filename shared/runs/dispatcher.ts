/**
 * The scheduler's tick (an EventBridge rule every minute in AWS; the local host's own timer
 * locally): start every connection whose next run is due, and resume runs that stalled.
 *
 * Due connections come from a sparse index (GSI1, `DUE#<shard>`, sorted by next_run_at). Each
 * start claims its slot with a condition, so two dispatchers ticking at once start one run; a
 * slot that comes while the connection's previous run is still going is skipped (that run is
 * as fresh), and a dispatcher that was down for days runs a connection once, not once per
 * missed day.
 */
import type { Deps } from '../deps';
import { isIntegrationLicensed } from '../connections/integration-licenses';
import { isConditionFailure } from '../store/client';
import { keys } from '../store/keys';
import type { ConnectionRecord, RunRecord } from '../store/records';
import { finalizeRun } from './run-finalize';
import { nextRunAt } from './schedule';
import { enqueueStep, expectedByIso, startRun } from './start-run';

/** Index entries read per shard and tick; the rest waits for the next tick (a minute later). */
const BATCH = 100;
/** A run that stalls this often is failed rather than resumed again. */
export const MAX_RECOVERIES = 3;

export interface DispatchReport {
  started: string[];
  skipped: string[];
  resumed: string[];
  failed: string[];
}

export async function dispatchTick(deps: Deps): Promise<DispatchReport> {
  const report: DispatchReport = { started: [], skipped: [], resumed: [], failed: [] };
  await dispatchDueRuns(deps, report);
  await recoverStalledRuns(deps, report);
  return report;
}

export async function dispatchDueRuns(deps: Deps, report: DispatchReport): Promise<void> {
  const now = deps.clock.now();
  const upTo = `${now.toISOString()}#~`;
  for (const shard of keys.dueConnectionShards()) {
    const due = await deps.table.queryIndexUpTo('GSI1', shard, upTo, BATCH);
    for (const item of due as unknown as ConnectionRecord[]) {
      const slot = item.next_run_at;
      if (!slot) continue;
      const scope = { tenantId: item.tenant_id, workspaceId: item.workspace_id };
      try {
        if (item.active_run_id) {
          if (await skipSlot(deps, item, slot, now, 'a run of the connection is still going')) report.skipped.push(item.connection_id);
          continue;
        }
        if (!(await isIntegrationLicensed(deps, item.tenant_id, item.integration_id))) {
          if (await skipSlot(deps, item, slot, now, 'the tenant\'s licence does not include the integration')) report.skipped.push(item.connection_id);
          continue;
        }
        const run = await startRun(deps, { scope, connectionId: item.connection_id, trigger: 'schedule', actorId: null, sourceIp: null, slot }, item);
        if (run) report.started.push(run.run_id);
      } catch (error) {
        // One connection's trouble must not stop the others' runs.
        deps.observability.logger.error('scheduled run could not start', { connection_id: item.connection_id, error_name: (error as Error).name });
      }
    }
  }
}

/** Moves the schedule past a slot whose connection is still busy; false when another tick did. */
async function skipSlot(deps: Deps, connection: ConnectionRecord, slot: string, now: Date, reason: string): Promise<boolean> {
  const next = nextRunAt(connection.schedule, new Date(Math.max(now.getTime(), Date.parse(slot)))).toISOString();
  try {
    await deps.table.update({
      Key: keys.connection(connection.tenant_id, connection.workspace_id, connection.connection_id),
      UpdateExpression: 'SET next_run_at = :next, GSI1SK = :due',
      ConditionExpression: 'next_run_at = :slot',
      ExpressionAttributeValues: { ':next': next, ':due': keys.dueConnection(connection.connection_id, next).GSI1SK, ':slot': slot },
    });
    deps.observability.logger.info(`scheduled slot skipped: ${reason}`, { connection_id: connection.connection_id, slot, run_id: connection.active_run_id });
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * Runs that have shown no progress by the time they were expected to (a lost message, a step
 * that died more often than the queue retries it) are resumed from their checkpoint; after
 * MAX_RECOVERIES they are failed, which frees the connection for its next run.
 */
export async function recoverStalledRuns(deps: Deps, report: DispatchReport): Promise<void> {
  const now = deps.clock.now();
  const upTo = `${now.toISOString()}#~`;
  for (const shard of keys.activeRunShards()) {
    const stalled = await deps.table.queryIndexUpTo('GSI1', shard, upTo, BATCH);
    for (const item of stalled as unknown as RunRecord[]) {
      const scope = { tenantId: item.tenant_id, workspaceId: item.workspace_id, connectionId: item.connection_id };
      const runKey = keys.connectionRun(scope.tenantId, scope.workspaceId, scope.connectionId, item.run_id);
      try {
        const run = await deps.table.get<RunRecord>(runKey);
        if (!run || (run.status !== 'queued' && run.status !== 'running')) continue;
        if (run.recoveries >= MAX_RECOVERIES) {
          const errors = [
            ...run.errors,
            { category: 'internal', message: 'The run stopped unexpectedly and could not be resumed.', action: 'Start a new run; if this happens again, contact support with the run id.' },
          ];
          const tracks = Object.fromEntries(Object.entries(run.progress.tracks).map(([name, t]) => [name, t.status === 'pending' ? { ...t, status: 'failed' as const } : t]));
          await finalizeRun(deps, scope, run, { ...run.progress, tracks }, errors, run.progress.step);
          report.failed.push(run.run_id);
          continue;
        }
        await deps.table.update({
          Key: runKey,
          UpdateExpression: 'SET recoveries = recoveries + :one, GSI1SK = :expected',
          ConditionExpression: 'progress.#step = :step AND recoveries = :recoveries',
          ExpressionAttributeNames: { '#step': 'step' },
          ExpressionAttributeValues: { ':one': 1, ':expected': keys.activeRun(run.run_id, expectedByIso(deps, now.getTime())).GSI1SK, ':step': run.progress.step, ':recoveries': run.recoveries },
        });
        await enqueueStep(deps, run, run.progress.step);
        deps.observability.logger.warn('stalled run resumed', { run_id: run.run_id, step: run.progress.step, recoveries: run.recoveries + 1 });
        report.resumed.push(run.run_id);
      } catch (error) {
        if (isConditionFailure(error)) continue; // it moved on, or another tick resumed it
        deps.observability.logger.error('stalled run could not be resumed', { run_id: item.run_id, error_name: (error as Error).name });
      }
    }
  }
}
