/**
 * One step of a run: the unit the queue carries. A step reads the provider from the saved
 * cursors (`read-step.ts`) or, once every track is read, sweeps what the provider no longer has
 * (`sweep-step.ts`); then it commits its checkpoint. The last step sets the run's verdict and
 * the connection's health.
 *
 * Crash safety, in the order a step writes: inventory items (each tagged with the run and
 * step), then the step's parts, then its header, then the run record (with a condition on the
 * step number), then the next message. Dying anywhere before the run record leaves the step to
 * be redone (its writes are recognised); dying after the header leaves only the commit to redo;
 * a duplicate or late message finds the run past its step and does nothing.
 */
import type { Deps } from '../deps';
import type { RemediationItem } from '../connectors/connector';
import { isConditionFailure } from '../store/client';
import { keys } from '../store/keys';
import type { ChangeEntry, ConnectionRecord, RunProgress, RunRecord } from '../store/records';
import type { InventoryScope, StepObservations } from './inventory-writer';
import { recordNameInitials } from './entity-search';
import { readStepHeader, writeStepHeader, writeStepParts, type StepHeader } from './run-checkpoint';
import { finalizeRun } from './run-finalize';
import { isActive } from './run-records';
import { readStep } from './read-step';
import { markStepStarted } from './run-progress';
import { sweepStep } from './sweep-step';
import { enqueueStep, expectedByIso } from './start-run';
import type { RunMessage } from './run-queue';

export type RunStepMessage = Extract<RunMessage, { type: 'run_step' }>;

export interface StepOptions {
  /** Epoch milliseconds by which the step must have stopped reading (the function's deadline less a margin). */
  deadlineMs: number;
}

/** What a read or sweep step found, for its checkpoint. */
export interface StepResult {
  next: RunProgress;
  errors: RemediationItem[];
  delaySeconds: number;
  changes: ChangeEntry[];
  removed: string[];
  observations?: StepObservations;
}

export async function executeRunStep(deps: Deps, message: RunStepMessage, options: StepOptions): Promise<void> {
  const scope: InventoryScope = { tenantId: message.tenant_id, workspaceId: message.workspace_id, connectionId: message.connection_id };
  const run = await deps.table.get<RunRecord>(keys.connectionRun(scope.tenantId, scope.workspaceId, scope.connectionId, message.run_id));
  // Purged, finished, or already past this step: a duplicate or late delivery.
  if (!run || !isActive(run) || run.progress.step !== message.step) return;
  const connection = await deps.table.get<ConnectionRecord>(keys.connection(scope.tenantId, scope.workspaceId, scope.connectionId));
  if (!connection) return; // deleted: its purge removes the run too

  const header = await readStepHeader(deps, scope, run.run_id, message.step);
  if (header) return commit(deps, scope, run, header);
  await markStepStarted(deps, scope, run);

  const progress = structuredClone(run.progress);
  const result = progress.phase === 'read' ? await readStep(deps, scope, run, connection, progress, options) : await sweepStep(deps, scope, run, progress, options);
  const [changes] = await Promise.all([
    writeStepParts(deps, scope, run.run_id, message.step, {
      seen: result.observations?.seen ?? new Map<string, Map<string, string[]>>(),
      changes: result.changes,
      removed: result.removed,
      held: result.observations?.held ?? [],
    }),
    recordNameInitials(deps, scope, result.observations?.nameInitials ?? new Map()),
  ]);
  result.next.step = message.step + 1;
  addChangeCounts(result.next, changes);
  const next: StepHeader = { next: result.next, errors: result.errors, delay_seconds: result.delaySeconds };
  await writeStepHeader(deps, scope, run.run_id, message.step, next);
  await commit(deps, scope, run, next);
}

/** Makes a finished step count: the run record moves on (once), then the next step is queued. */
async function commit(deps: Deps, scope: InventoryScope, run: RunRecord, header: StepHeader): Promise<void> {
  if (header.next.phase === 'done') {
    await finalizeRun(deps, scope, run, header.next, header.errors, run.progress.step);
    return;
  }
  const now = deps.clock.now();
  try {
    await deps.table.update({
      Key: keys.connectionRun(scope.tenantId, scope.workspaceId, scope.connectionId, run.run_id),
      UpdateExpression: 'SET progress = :next, errors = :errors, #status = :running, GSI1SK = :expected',
      ConditionExpression: 'progress.#step = :step AND #status IN (:queued, :running)',
      ExpressionAttributeNames: { '#status': 'status', '#step': 'step' },
      ExpressionAttributeValues: {
        ':next': header.next,
        ':errors': header.errors,
        ':running': 'running',
        ':queued': 'queued',
        ':step': run.progress.step,
        ':expected': keys.activeRun(run.run_id, expectedByIso(deps, now.getTime(), header.delay_seconds)).GSI1SK,
      },
    });
  } catch (error) {
    if (isConditionFailure(error)) return; // another delivery of this step committed it first
    throw error;
  }
  await enqueueStep(deps, run, header.next.step, header.delay_seconds);
}

function addChangeCounts(progress: RunProgress, changes: readonly ChangeEntry[]): void {
  for (const entry of changes) {
    const relationship = entry.length === 6;
    const [change] = entry;
    if (relationship) progress.changes[change === 'added' ? 'relationships_added' : 'relationships_removed'] += 1;
    else progress.changes[change === 'added' ? 'entities_added' : change === 'removed' ? 'entities_removed' : 'entities_changed'] += 1;
  }
}
