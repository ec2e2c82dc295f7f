/**
 * Drives a connector's discovery the way the run engine does, for the peer tests: every track
 * from a null cursor to its end, one `readPage` at a time, the cursor saved as JSON between
 * pages (a fresh per-step session every few pages, so nothing may ride between pages except the
 * cursor), a `throttled` answer waited out until its `retryAtMs` and read again with the same
 * cursor, and a pacer that holds requests to a bucket until the time the provider named.
 */
import type { RemediationItem } from '../../shared/connectors/connector';
import type { Discovery, ObservedEntity, ObservedRelationship, PageOutcome, ProviderPacer, TrackCursor } from '../../shared/connectors/discovery';

export class TestPacer implements ProviderPacer {
  requests = 0;
  private readonly notBefore = new Map<string, number>();
  /** What the connector told the pacer, in order. */
  readonly observed: { bucket: string; remaining?: number; resetAtMs?: number; retryAtMs?: number }[] = [];

  async wait(bucket: string, signal: AbortSignal): Promise<void> {
    const delay = (this.notBefore.get(bucket) ?? 0) - Date.now();
    if (delay > 0) await sleep(delay, signal);
    this.requests += 1;
  }

  observe(bucket: string, state: { remaining?: number; resetAtMs?: number; retryAtMs?: number }): void {
    this.observed.push({ bucket, ...state });
    const until = state.retryAtMs ?? (state.remaining === 0 ? state.resetAtMs : undefined);
    if (until !== undefined) this.notBefore.set(bucket, Math.max(until, this.notBefore.get(bucket) ?? 0));
  }
}

export interface TrackResult {
  status: 'complete' | 'refused' | 'failed' | 'stuck';
  remediation: RemediationItem[];
  pages: number;
  /** Each throttled answer: when it came and when it asked to be called again. */
  throttles: { at: number; retryAtMs: number }[];
  /** The cursors saved after each page, as stored (JSON). */
  cursors: string[];
}

/** An observation with the track that owns it (`track`) and the track whose page carried it. */
export type DrivenEntity = ObservedEntity & { track: string; readBy: string };

export interface DiscoveryRead {
  tracks: Record<string, TrackResult>;
  entities: DrivenEntity[];
  relationships: ObservedRelationship[];
  /** Every outcome of every readPage, in order (for the "no secret anywhere" checks). */
  outcomes: PageOutcome[];
  pacer: TestPacer;
}

export interface DriveOptions {
  endpoints: Record<string, string>;
  /** Pages per engine step: a new `context.session` after each such run of pages. */
  pagesPerStep?: number;
  /** Throttled answers tolerated per track before the driver gives up on it. */
  maxThrottles?: number;
  timeoutMs?: number;
}

export async function driveDiscovery<C, S>(discovery: Discovery<C, S>, input: { configuration: C; scope: S }, options: DriveOptions): Promise<DiscoveryRead> {
  const pacer = new TestPacer();
  const signal = AbortSignal.timeout(options.timeoutMs ?? 20_000);
  const pagesPerStep = options.pagesPerStep ?? 2;
  const read: DiscoveryRead = { tracks: {}, entities: [], relationships: [], outcomes: [], pacer };

  for (const { name } of discovery.tracks(input.scope)) {
    const result: TrackResult = { status: 'stuck', remediation: [], pages: 0, throttles: [], cursors: [] };
    read.tracks[name] = result;
    let cursor: TrackCursor | null = null;
    let session = new Map<string, unknown>();
    for (let call = 0; call < 500; call += 1) {
      const outcome = await discovery.readPage(input, name, cursor, { signal, endpoints: options.endpoints, pacer, session, now: () => Date.now() });
      read.outcomes.push(outcome);
      if (outcome.kind === 'throttled') {
        result.throttles.push({ at: Date.now(), retryAtMs: outcome.retryAtMs });
        if (result.throttles.length > (options.maxThrottles ?? 5)) break;
        await sleep(outcome.retryAtMs - Date.now(), signal);
        continue;
      }
      if (outcome.kind !== 'page') {
        result.status = outcome.kind;
        result.remediation = outcome.remediation;
        break;
      }
      result.pages += 1;
      read.entities.push(...outcome.entities.map((e) => ({ ...e, track: e.track ?? name, readBy: name })));
      read.relationships.push(...outcome.relationships.map((r) => ({ ...r, track: r.track ?? name })));
      if (outcome.next === null) {
        result.status = 'complete';
        break;
      }
      const saved = JSON.stringify(outcome.next);
      result.cursors.push(saved);
      cursor = JSON.parse(saved) as TrackCursor;
      if (result.pages % pagesPerStep === 0) session = new Map();
    }
  }
  return read;
}

/**
 * One entry per (kind, source_id): what the inventory would hold. An observation made by the
 * entity's own track wins over one another track made from a reference (`track` set to the owner).
 */
export function inventory(read: DiscoveryRead): Map<string, ObservedEntity> {
  const entities = new Map<string, DrivenEntity>();
  for (const entity of read.entities) {
    const key = `${entity.kind} ${entity.source_id}`;
    const held = entities.get(key);
    if (!held || held.track !== held.readBy || entity.track === entity.readBy) entities.set(key, entity);
  }
  return entities;
}

export function countByKind(items: readonly { kind: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[item.kind] = (counts[item.kind] ?? 0) + 1;
  return counts;
}

/** Relationships as `kind from -> to` strings, without repeats. */
export function relationshipKeys(read: DiscoveryRead): Set<string> {
  return new Set(read.relationships.map((r) => `${r.kind} ${r.from.kind}:${r.from.source_id} -> ${r.to.kind}:${r.to.source_id}`));
}

/** Relationship ends that no page emitted as an entity. */
export function danglingEnds(read: DiscoveryRead): string[] {
  const entities = inventory(read);
  return read.relationships
    .flatMap((r) => [r.from, r.to])
    .filter((end) => !entities.has(`${end.kind} ${end.source_id}`))
    .map((end) => `${end.kind} ${end.source_id}`);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    }, { once: true });
  });
}
