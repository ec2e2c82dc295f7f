/**
 * The progress a run shows while it goes: its public shape, drawn from the checkpoint
 * (`RunProgress`, committed at the end of every step), and the refreshes a step writes on the
 * way: when it starts (which also marks the run `running` and sets `started_at` the first time)
 * and, while it reads, every few seconds (`TESSERA_RUN_PROGRESS_SECONDS`). A refresh is kept
 * apart from the checkpoint (`live_progress`, tagged with its step), so it never moves the run
 * on: it counts only while the checkpoint is still at its step.
 */
import type { Deps } from '../deps';
import { isConditionFailure } from '../store/client';
import { keys } from '../store/keys';
import type { PublicTrackStatus, RunLiveProgress as LiveProgress, RunProgress, RunProgressView as ProgressView, RunRecord } from '../store/records';
import type { InventoryScope } from './inventory-writer';

const PHASE = { read: 'reading', sweep: 'sweeping', done: 'finalizing' } as const;

/**
 * A track that failed is shown as `refused`: the provider did not let it be read (rejected
 * credentials, no answer), and the run's errors say why.
 */
function trackStatus(track: RunProgress['tracks'][string], reading: boolean): PublicTrackStatus {
  if (track.status === 'done' || track.status === 'refused') return track.status;
  if (track.status === 'failed') return 'refused';
  return reading || track.pages > 0 ? 'reading' : 'pending';
}

/** The public progress of a checkpoint, with the tracks a step is reading right now. */
export function progressViewOf(progress: RunProgress, extra: { requests?: number; items?: number; throttledMs?: number; reading?: ReadonlySet<string> } = {}): ProgressView {
  const tracks = Object.entries(progress.tracks);
  return {
    phase: PHASE[progress.phase],
    requests: progress.stats.provider_requests + (extra.requests ?? 0),
    pages: tracks.reduce((sum, [, track]) => sum + track.pages, 0),
    items_written: progress.stats.items_written + (extra.items ?? 0),
    throttled_seconds: Math.round((progress.stats.throttled_ms + (extra.throttledMs ?? 0)) / 1000),
    tracks: Object.fromEntries(tracks.map(([name, track]) => [name, { status: trackStatus(track, extra.reading?.has(name) ?? false), pages: track.pages }])),
  };
}

/** What the API shows: the step's latest refresh while it is the current one, else the checkpoint. */
export function currentProgress(run: Pick<RunRecord, 'progress' | 'live_progress' | 'status'>): ProgressView {
  const live = run.live_progress;
  const active = run.status === 'queued' || run.status === 'running';
  if (active && live && live.step === run.progress.step) {
    return { phase: live.phase, requests: live.requests, pages: live.pages, items_written: live.items_written, throttled_seconds: live.throttled_seconds, tracks: live.tracks };
  }
  return progressViewOf(run.progress);
}

/**
 * A step has started: the run is `running` from now on, `started_at` is set by the first step
 * (the only one that finds the run `queued`), and the progress shows the step's phase.
 */
export async function markStepStarted(deps: Deps, scope: InventoryScope, run: RunRecord): Promise<void> {
  const now = deps.clock.now().toISOString();
  const live: LiveProgress = { ...progressViewOf(run.progress), step: run.progress.step };
  const key = keys.connectionRun(scope.tenantId, scope.workspaceId, scope.connectionId, run.run_id);
  const names = { '#status': 'status', '#step': 'step' };
  if (run.status === 'queued') {
    try {
      await deps.table.update({
        Key: key,
        UpdateExpression: 'SET #status = :running, started_at = :now, live_progress = :live',
        ConditionExpression: 'progress.#step = :step AND #status = :queued',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':running': 'running', ':now': now, ':live': live, ':step': run.progress.step, ':queued': 'queued' },
      });
      run.status = 'running';
      run.started_at = now;
      return;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // Another delivery of this step started it first: refresh only.
    }
  }
  await writeLiveProgress(deps, scope, run.run_id, live);
}

/** Writes a refresh; one that comes after its step was committed (or the run ended) is dropped. */
export async function writeLiveProgress(deps: Deps, scope: InventoryScope, runId: string, live: LiveProgress): Promise<void> {
  try {
    await deps.table.update({
      Key: keys.connectionRun(scope.tenantId, scope.workspaceId, scope.connectionId, runId),
      UpdateExpression: 'SET live_progress = :live',
      ConditionExpression: 'progress.#step = :step AND #status = :running',
      ExpressionAttributeNames: { '#status': 'status', '#step': 'step' },
      ExpressionAttributeValues: { ':live': live, ':step': live.step, ':running': 'running' },
    });
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/**
 * Refreshes during a reading step: at most one in flight and one per interval. A page that
 * comes while a refresh is in flight is shown by one more refresh right after it, so the last
 * page before a pause of the provider is not left out. A refresh that fails is only logged:
 * the checkpoint at the end of the step shows the same.
 */
export class ProgressRefresher {
  private lastMs = 0;
  private inFlight: Promise<void> | undefined;
  private pending = false;

  constructor(
    private readonly deps: Deps,
    private readonly scope: InventoryScope,
    private readonly runId: string,
    private readonly step: number,
    private readonly snapshot: () => ProgressView,
  ) {}

  /** Called after each page: refreshes when the interval has passed. */
  maybeRefresh(): void {
    if (this.inFlight) {
      this.pending = true;
      return;
    }
    const now = Date.now();
    if (now - this.lastMs < this.deps.config.runs.progressSeconds * 1000) return;
    this.lastMs = now;
    this.pending = false;
    const live: LiveProgress = { ...this.snapshot(), step: this.step };
    this.inFlight = writeLiveProgress(this.deps, this.scope, this.runId, live)
      .catch((error: unknown) => this.deps.observability.logger.warn('run progress could not be refreshed', { run_id: this.runId, error_name: (error as Error).name }))
      .finally(() => {
        this.inFlight = undefined;
        if (this.pending) this.maybeRefresh();
      });
  }

  /** Waits for the refreshes in flight, so none is left running past the step. */
  async settle(): Promise<void> {
    this.pending = false;
    while (this.inFlight) await this.inFlight;
  }
}
