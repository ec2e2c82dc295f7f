/**
 * A reading step: the connector's tracks in parallel (a bounded number at a time), page by page
 * from the saved cursors, until the step's time, page or observation budget is spent; each page
 * written into the inventory while the next one is read.
 */
import type { Deps } from '../deps';
import { findIntegration } from '../connectors/catalog';
import type { RemediationItem } from '../connectors/connector';
import type { DiscoveryContext, PageOutcome } from '../connectors/discovery';
import { readConfiguration, UNREADABLE_CONFIGURATION } from '../connections/connection-configuration';
import type { ConnectionRecord, RunProgress, RunRecord } from '../store/records';
import { runWithConcurrency } from '../bounded-concurrency';
import { StepObservations, writeObservations, type InventoryScope } from './inventory-writer';
import { createStepPacer, type StepPacer } from './provider-pacer';
import { ProgressRefresher, progressViewOf } from './run-progress';
import { MAX_DELAY_SECONDS } from './run-queue';
import type { StepOptions, StepResult } from './run-step';
import { connectorOf } from '../connectors/connector-registry';

/** A failed read that is only the network is tried again this often (with a pause) before it fails the run. */
const TRANSIENT_RETRIES = 2;
/** Pages of one track being written while the track reads on. */
const WRITES_AHEAD_PER_TRACK = 2;

export async function readStep(deps: Deps, scope: InventoryScope, run: RunRecord, connection: ConnectionRecord, progress: RunProgress, options: StepOptions): Promise<StepResult> {
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
  const context: DiscoveryContext = { signal: controller.signal, endpoints: deps.config.connectors.endpoints, oktaOrgs: deps.config.connectors.oktaOrgs, pacer, session: new Map(), now: Date.now };
  const input = { configuration: configuration.value, scope: connection.scope } as { configuration: never; scope: never };
  let failed = false;
  const reading = new Set<string>();
  const refresher = new ProgressRefresher(deps, scope, run.run_id, run.progress.step, () =>
    progressViewOf(progress, { requests: pacer.requests, items: observations.itemsWritten, throttledMs: pacer.waitedMs, reading }),
  );

  const readTrack = async (name: string) => {
    const track = progress.tracks[name]!;
    // A page is written while the next one is read: the provider's pace, not the table's
    // latency, sets a track's speed. The cursor moves on at once; the checkpoint that saves it
    // is written only after every write below has landed.
    const writes = new WriteBehind(WRITES_AHEAD_PER_TRACK);
    reading.add(name);
    try {
      for (let pages = 0; (deps.config.runs.pagesPerStep === 0 || pages < deps.config.runs.pagesPerStep) && observations.seenCount < deps.config.runs.maxStepObservations; pages++) {
        const outcome = await readWithRetries(() => connectorOf(integration).discover.readPage(input, name, track.cursor as never, context), pacer, controller.signal, deadlineMs);
        // What a read stopped by the step's own deadline answered is not the provider's verdict.
        if (outcome === undefined || controller.signal.aborted) return;
        if (outcome.kind === 'page') {
          await writes.add(writeObservations(deps, observations, outcome, name).then(() => refresher.maybeRefresh()));
          track.cursor = outcome.next;
          track.pages += 1;
          refresher.maybeRefresh();
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
    } finally {
      reading.delete(name);
      await writes.drain();
    }
  };

  try {
    const pending = Object.keys(progress.tracks).filter((name) => progress.tracks[name]!.status === 'pending');
    await runWithConcurrency(pending, deps.config.runs.concurrency, readTrack);
  } finally {
    clearTimeout(timer);
    await refresher.settle();
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

/**
 * Writes that run behind the reads, at most `limit` at a time. The first failure is kept and
 * thrown by the next `add` or by `drain`, so a step whose write failed never checkpoints.
 */
class WriteBehind {
  private readonly inFlight = new Set<Promise<void>>();
  private failure: { error: unknown } | undefined;

  constructor(private readonly limit: number) {}

  /** Takes a started write; waits while `limit` writes are in flight. */
  async add(write: Promise<void>): Promise<void> {
    const tracked: Promise<void> = write.then(
      () => void this.inFlight.delete(tracked),
      (error: unknown) => {
        this.inFlight.delete(tracked);
        this.failure ??= { error };
      },
    );
    this.inFlight.add(tracked);
    while (this.inFlight.size >= this.limit) await Promise.race(this.inFlight);
    this.rethrow();
  }

  async drain(): Promise<void> {
    await Promise.all(this.inFlight);
    this.rethrow();
  }

  private rethrow(): void {
    if (this.failure) throw this.failure.error;
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

function dedupeRemediation(items: readonly RemediationItem[]): RemediationItem[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = `${item.category}\u0000${item.message}\u0000${item.action}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
