/**
 * One step of a run: the unit the queue carries. A step reads the provider from the saved
 * cursors (tracks in parallel, a bounded number at a time) until its time or page budget is
 * spent, writes what changed into the inventory, and commits its checkpoint; or, once every
 * track is read, sweeps what the provider no longer has, a kind at a time; the last step sets
 * the run's verdict and the connection's health.
 *
 * Crash safety, in the order a step writes: inventory items (each tagged with the run and
 * step), then the step's parts, then its header, then the run record (with a condition on the
 * step number), then the next message. Dying anywhere before the run record leaves the step to
 * be redone (its writes are recognised); dying after the header leaves only the commit to redo;
 * a duplicate or late message finds the run past its step and does nothing.
 */
import type { Deps } from '../deps';
import { findIntegration } from '../connectors/catalog';
import type { RemediationItem } from '../connectors/connector';
import { entityKinds, relationshipKinds, type DiscoveryContext, type PageOutcome } from '../connectors/discovery';
import { readConfiguration, UNREADABLE_CONFIGURATION } from '../connections/connection-configuration';
import { isConditionFailure } from '../store/client';
import { keys } from '../store/keys';
import type { ChangeEntry, ConnectionRecord, RunProgress, RunRecord } from '../store/records';
import { seenKeyOfEntity, seenKeyOfRelationship } from './inventory-ids';
import { StepObservations, writeObservations, type InventoryScope } from './inventory-writer';
import { loadRemoved, loadSeen, readStepHeader, writeStepHeader, writeStepParts, type StepHeader } from './run-checkpoint';
import { finalizeRun } from './run-finalize';
import { isActive } from './run-records';
import { createStepPacer, type StepPacer } from './provider-pacer';
import { enqueueStep, expectedByIso } from './start-run';
import { MAX_DELAY_SECONDS, type RunMessage } from './run-queue';

export type RunStepMessage = Extract<RunMessage, { type: 'run_step' }>;

export interface StepOptions {
  /** Epoch milliseconds by which the step must have stopped reading (the function's deadline less a margin). */
  deadlineMs: number;
}

/** The kinds the sweep visits, entities first: the relationship sweep drops what pointed at removed entities. */
export const SWEEP_ORDER: readonly string[] = [...entityKinds, ...relationshipKinds];
const isRelationshipKind = (kind: string) => (relationshipKinds as readonly string[]).includes(kind);

/** A failed read that is only the network is tried again this often (with a pause) before it fails the run. */
const TRANSIENT_RETRIES = 2;
const SWEEP_PAGE = 500;
/**
 * A step checkpoints once it has seen this many entities and relationships, whatever time is
 * left: what it holds until then (digests, changes) is what bounds the worker's memory.
 */
export const MAX_STEP_OBSERVATIONS = 10_000;

interface StepResult {
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

  const progress = structuredClone(run.progress);
  const result = progress.phase === 'read' ? await readStep(deps, scope, run, connection, progress, options) : await sweepStep(deps, scope, run, progress, options);
  const changes = await writeStepParts(deps, scope, run.run_id, message.step, {
    seen: result.observations?.seen ?? new Map<string, Map<string, string[]>>(),
    changes: result.changes,
    removed: result.removed,
  });
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
      UpdateExpression: 'SET progress = :next, errors = :errors, #status = :running, started_at = if_not_exists(started_at, :now), GSI1SK = :expected',
      ConditionExpression: 'progress.#step = :step AND #status IN (:queued, :running)',
      ExpressionAttributeNames: { '#status': 'status', '#step': 'step' },
      ExpressionAttributeValues: {
        ':next': header.next,
        ':errors': header.errors,
        ':running': 'running',
        ':queued': 'queued',
        ':now': now.toISOString(),
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

// ---- reading ------------------------------------------------------------------------------

async function readStep(deps: Deps, scope: InventoryScope, run: RunRecord, connection: ConnectionRecord, progress: RunProgress, options: StepOptions): Promise<StepResult> {
  const errors = [...run.errors];
  const observations = new StepObservations(scope, run.run_id, run.progress.step, deps.clock.now().toISOString());
  const integration = findIntegration(run.integration_id);
  const configuration = await readConfiguration(deps, scope, scope.connectionId, connection.configuration_encrypted);
  if (!integration || configuration === undefined) {
    for (const track of Object.values(progress.tracks)) if (track.status === 'pending') track.status = 'failed';
    return { next: { ...progress, phase: 'done' }, errors: [...errors, UNREADABLE_CONFIGURATION], delaySeconds: 0, changes: [], removed: [], observations };
  }

  const deadlineMs = Math.min(options.deadlineMs, Date.now() + deps.config.runs.stepSeconds * 1000);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), Math.max(0, deadlineMs - Date.now()));
  const pacer = createStepPacer({ now: Date.now, deadlineMs, abort: () => controller.abort(), initial: progress.pacing });
  const context: DiscoveryContext = { signal: controller.signal, endpoints: deps.config.connectors.endpoints, pacer, session: new Map(), now: Date.now };
  const input = { configuration: configuration.value, scope: connection.scope } as { configuration: never; scope: never };
  let failed = false;

  const readTrack = async (name: string) => {
    const track = progress.tracks[name]!;
    for (let pages = 0; (deps.config.runs.pagesPerStep === 0 || pages < deps.config.runs.pagesPerStep) && observations.seenCount < MAX_STEP_OBSERVATIONS; pages++) {
      const outcome = await readWithRetries(() => integration.connector.discover.readPage(input, name, track.cursor as never, context), pacer, controller.signal, deadlineMs);
      // What a read stopped by the step's own deadline answered is not the provider's verdict.
      if (outcome === undefined || controller.signal.aborted) return;
      if (outcome.kind === 'page') {
        await writeObservations(deps, observations, outcome, name);
        track.cursor = outcome.next;
        track.pages += 1;
        if (outcome.next === null) {
          track.status = 'done';
          return;
        }
      } else if (outcome.kind === 'refused') {
        track.status = 'refused';
        errors.push(...outcome.remediation);
        return;
      } else if (outcome.kind === 'failed') {
        track.status = 'failed';
        errors.push(...outcome.remediation);
        failed = true;
        controller.abort(); // nothing more is usable: stop the other tracks
        return;
      }
    }
  };

  try {
    const pending = Object.keys(progress.tracks).filter((name) => progress.tracks[name]!.status === 'pending');
    await runWithConcurrency(pending, deps.config.runs.concurrency, readTrack);
  } finally {
    clearTimeout(timer);
  }

  progress.pacing = pacer.snapshot();
  progress.stats.provider_requests += pacer.requests;
  progress.stats.throttled_ms += Math.round(pacer.waitedMs);
  progress.stats.items_written += observations.itemsWritten;
  const unique = dedupeRemediation(errors);
  const statuses = Object.values(progress.tracks).map((t) => t.status);
  if (failed) return { next: { ...progress, phase: 'done' }, errors: unique, delaySeconds: 0, changes: observations.changes, removed: [], observations };
  if (statuses.every((s) => s !== 'pending')) {
    // Everything refused: nothing was read, so nothing may be swept.
    const phase = statuses.every((s) => s === 'refused') ? 'done' : 'sweep';
    return { next: { ...progress, phase }, errors: unique, delaySeconds: 0, changes: observations.changes, removed: [], observations };
  }
  const delaySeconds = pacer.deferUntilMs === undefined ? 0 : Math.min(MAX_DELAY_SECONDS, Math.max(1, Math.ceil((pacer.deferUntilMs - Date.now()) / 1000)));
  return { next: progress, errors: unique, delaySeconds, changes: observations.changes, removed: [], observations };
}

/**
 * One page, with the provider's throttling honoured (a wait that fits in the step is slept, a
 * longer one ends the step) and a network failure retried a few times. Undefined when the step
 * must stop before the page was read.
 */
async function readWithRetries(read: () => Promise<PageOutcome>, pacer: StepPacer, signal: AbortSignal, deadlineMs: number): Promise<PageOutcome | undefined> {
  for (let attempt = 0; ; attempt++) {
    if (signal.aborted) return undefined;
    const outcome = await read();
    if (outcome.kind === 'throttled') {
      if (outcome.retryAtMs > deadlineMs) {
        pacer.defer(outcome.retryAtMs);
        return undefined;
      }
      const waitMs = Math.max(0, outcome.retryAtMs - Date.now());
      if (!(await pause(waitMs, signal))) return undefined;
      pacer.waited(waitMs);
      continue;
    }
    const transient = outcome.kind === 'failed' && outcome.remediation.every((r) => r.category === 'connectivity');
    if (transient && attempt < TRANSIENT_RETRIES && !signal.aborted) {
      const backoff = 1000 * 3 ** attempt;
      if (Date.now() + backoff < deadlineMs && (await pause(backoff, signal))) continue;
    }
    return outcome;
  }
}

/** Resolves true after `ms`, or false as soon as the signal aborts. */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, Math.max(0, ms));
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

async function runWithConcurrency<T>(items: readonly T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await run(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

function dedupeRemediation(items: readonly RemediationItem[]): RemediationItem[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = `${item.category}\u0000${item.message}\u0000${item.action}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// ---- sweeping -----------------------------------------------------------------------------

/**
 * Removes, kind by kind, what the provider no longer has: stored items whose track was read to
 * the end (or is no longer in scope) and that this run did not see; and relationships whose
 * end this run removed. Tracks that were refused keep their items.
 */
async function sweepStep(deps: Deps, scope: InventoryScope, run: RunRecord, progress: RunProgress, options: StepOptions): Promise<StepResult> {
  const deadlineMs = Math.min(options.deadlineMs, Date.now() + deps.config.runs.stepSeconds * 1000);
  const changes: ChangeEntry[] = [];
  const removed: string[] = [];
  const sweepable = (track: unknown) => typeof track === 'string' && (progress.tracks[track] === undefined || progress.tracks[track].status === 'done');

  while (progress.sweep.index < SWEEP_ORDER.length && Date.now() < deadlineMs) {
    const kind = SWEEP_ORDER[progress.sweep.index]!;
    const relationship = isRelationshipKind(kind);
    const seen = await loadSeen(deps, scope, run.run_id, kind);
    if (seen.size > 0) (relationship ? progress.counts.relationships : progress.counts.entities)[kind] = seen.size;
    const removedEntities = relationship ? new Set([...(await loadRemoved(deps, scope, run.run_id)), ...removed]) : new Set<string>();
    const prefix = relationship
      ? keys.inventoryRelationships(scope.tenantId, scope.workspaceId, scope.connectionId, kind)
      : keys.inventoryEntities(scope.tenantId, scope.workspaceId, scope.connectionId, kind);
    let done = false;
    while (Date.now() < deadlineMs) {
      const page = await deps.table.queryRaw(prefix, {
        startKey: progress.sweep.cursor ?? undefined,
        limit: SWEEP_PAGE,
        projection: relationship ? ['kind', 'from_entity_id', 'to_entity_id', 'from_source_id', 'to_source_id', 'track'] : ['entity_id', 'source_id', 'track'],
      });
      const deletes: { PK: string; SK: string }[] = [];
      for (const item of page.items) {
        const sk = item.SK as string;
        if (relationship) {
          const from = item.from_entity_id as string;
          const to = item.to_entity_id as string;
          const gone = (sweepable(item.track) && !seen.has(seenKeyOfRelationship(kind, from, to))) || removedEntities.has(from) || removedEntities.has(to);
          if (!gone) continue;
          changes.push(['removed', kind, from, item.from_source_id as string, to, item.to_source_id as string]);
          deletes.push({ PK: prefix.PK, SK: sk });
        } else {
          const entityId = item.entity_id as string;
          if (!sweepable(item.track) || seen.has(seenKeyOfEntity(entityId))) continue;
          changes.push(['removed', kind, entityId, item.source_id as string]);
          removed.push(entityId);
          deletes.push({ PK: prefix.PK, SK: sk });
        }
      }
      if (deletes.length > 0) {
        // Recorded before deleting: a crash in between is redone from the same cursor, merged.
        await writeStepParts(deps, scope, run.run_id, run.progress.step, { seen: new Map(), changes, removed });
        await deps.table.batchWrite([], deletes);
        progress.stats.items_deleted += deletes.length;
      }
      progress.sweep.cursor = (page.lastKey) ?? null;
      if (!page.lastKey) {
        done = true;
        break;
      }
    }
    if (!done) break;
    progress.sweep = { index: progress.sweep.index + 1, cursor: null };
  }
  const phase = progress.sweep.index >= SWEEP_ORDER.length ? 'done' : 'sweep';
  return { next: { ...progress, phase }, errors: run.errors, delaySeconds: 0, changes, removed };
}
