/**
 * Starting a run: one transaction claims the connection (at most one queued or running run per
 * connection; for a schedule, also the slot, which moves to the next firing in the same write,
 * so a slot never runs twice even with two dispatchers) and writes the queued run; then the
 * first step goes on the queue. If that send is lost, the stalled-run recovery sends it.
 */
import type { Deps } from '../deps';
import { ConflictError, NotFoundError } from '../errors';
import { auditEventPut } from '../audit/audit-log';
import { findIntegration } from '../connectors/catalog';
import type { WorkspaceScope } from '../identity/principal';
import { failedConditionIndexes, isConditionFailure } from '../store/client';
import { keys } from '../store/keys';
import type { ConnectionRecord, RunRecord, RunTrigger } from '../store/records';
import { getConnection } from '../connections/connection-records';
import { assertConnectionLicensed } from '../connections/integration-licenses';
import { initialProgress } from './run-records';
import { runQueueOf } from './run-queue';
import { nextRunAt } from './schedule';

export interface StartRunInput {
  scope: WorkspaceScope;
  connectionId: string;
  trigger: RunTrigger;
  actorId: string | null;
  sourceIp: string | null;
  /** Scheduled runs: the connection's `next_run_at` this run is for. */
  slot?: string;
  /** Manual runs: accept the drops the mass-removal guard would hold back (removal-guard.ts). */
  confirmRemovals?: boolean;
}

/** When a queued run must have shown progress by, before the recovery resumes it. */
export const expectedByIso = (deps: Deps, fromMs: number, delaySeconds = 0) =>
  new Date(fromMs + (delaySeconds + deps.config.runs.stallSeconds) * 1000).toISOString();

export class RunInProgressError extends ConflictError {
  constructor(readonly runId: string) {
    super(`A run of this connection is already queued or running (${runId}); wait for it to finish`);
  }
}

/**
 * Claims and queues a run. A manual start while another run is active is a 409 naming it; a
 * scheduled start that lost its slot (another dispatcher took it, or the schedule changed)
 * returns undefined.
 */
export async function startRun(deps: Deps, input: StartRunInput, known?: ConnectionRecord): Promise<RunRecord | undefined> {
  const { scope, connectionId } = input;
  const connection = known ?? (await getConnection(deps, scope, connectionId));
  if (connection.active_run_id) {
    if (input.trigger === 'manual') throw new RunInProgressError(connection.active_run_id);
    return undefined;
  }
  if (input.trigger === 'manual') await assertConnectionLicensed(deps, scope.tenantId, connection.integration_id);
  const integration = findIntegration(connection.integration_id);
  if (!integration) throw new NotFoundError('integration');
  const now = deps.clock.now();
  const run: RunRecord = {
    run_id: deps.ids.next('run'),
    connection_id: connectionId,
    tenant_id: scope.tenantId,
    workspace_id: scope.workspaceId,
    integration_id: connection.integration_id,
    trigger: input.trigger,
    slot: input.slot ?? null,
    status: 'queued',
    queued_at: now.toISOString(),
    started_at: null,
    finished_at: null,
    errors: [],
    progress: initialProgress(integration.discoveryTracks(connection.scope).map((t) => t.name)),
    recoveries: 0,
    actor_id: input.actorId,
    ...(input.confirmRemovals ? { confirm_removals: true } : {}),
  };

  let update = 'SET active_run_id = :run, updated_at = :now, version = version + :one';
  const values: Record<string, unknown> = { ':run': run.run_id, ':now': run.queued_at, ':one': 1, ':none': null };
  let condition = 'attribute_exists(PK) AND (attribute_not_exists(active_run_id) OR active_run_id = :none)';
  if (input.trigger === 'schedule' && input.slot) {
    // The slot moves on in the same write that claims it: whoever loses the race sees it moved.
    const next = nextRunAt(connection.schedule, new Date(Math.max(now.getTime(), Date.parse(input.slot)))).toISOString();
    update += ', next_run_at = :next, GSI1SK = :due';
    condition += ' AND next_run_at = :slot';
    Object.assign(values, { ':next': next, ':due': keys.dueConnection(connectionId, next).GSI1SK, ':slot': input.slot });
  }
  const audit = auditEventPut(deps, {
    log: 'workspace', tenantId: scope.tenantId, workspaceId: scope.workspaceId, actorId: input.actorId,
    action: 'connection_run_started', targetType: 'connection', targetId: connectionId,
    payload: { run_id: run.run_id, trigger: run.trigger, ...(run.slot ? { slot: run.slot } : {}), ...(run.confirm_removals ? { confirm_removals: true } : {}) }, sourceIp: input.sourceIp,
  });
  try {
    await deps.table.transact([
      deps.table.updateItem({
        Key: keys.connection(scope.tenantId, scope.workspaceId, connectionId),
        UpdateExpression: update,
        ConditionExpression: condition,
        ExpressionAttributeValues: values,
      }),
      deps.table.putItem(
        { ...keys.connectionRun(scope.tenantId, scope.workspaceId, connectionId, run.run_id), ...keys.activeRun(run.run_id, expectedByIso(deps, now.getTime())), ...run },
        { expression: 'attribute_not_exists(PK)' },
      ),
      audit.item,
    ]);
  } catch (error) {
    if (!isConditionFailure(error) || !failedConditionIndexes(error).includes(0)) throw error;
    const current = await deps.table.get<ConnectionRecord>(keys.connection(scope.tenantId, scope.workspaceId, connectionId));
    if (!current) throw new NotFoundError('connection');
    if (input.trigger === 'manual' && current.active_run_id) throw new RunInProgressError(current.active_run_id);
    if (input.trigger === 'manual') throw new ConflictError('The connection changed while the run was being started; try again');
    return undefined;
  }
  await enqueueStep(deps, run, 0);
  return run;
}

/** Sends a step of a run; a lost send is logged, and the stalled-run recovery sends it again. */
export async function enqueueStep(deps: Deps, run: Pick<RunRecord, 'tenant_id' | 'workspace_id' | 'connection_id' | 'run_id'>, step: number, delaySeconds = 0): Promise<void> {
  try {
    await runQueueOf(deps).send(
      { type: 'run_step', tenant_id: run.tenant_id, workspace_id: run.workspace_id, connection_id: run.connection_id, run_id: run.run_id, step },
      delaySeconds > 0 ? { delaySeconds } : {},
    );
  } catch (error) {
    deps.observability.logger.error('run step could not be queued; the stalled-run recovery will resume it', { run_id: run.run_id, step, error_name: (error as Error).name });
  }
}
