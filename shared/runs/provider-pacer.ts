/**
 * The pacer of one run step: requests to a provider wait as the provider's own rate-limit
 * answers say (Okta's `X-Rate-Limit-Remaining`/`-Reset`, `Retry-After` of Graph and ARM), per
 * bucket, so a run spends its quota evenly instead of bursting into 429s. A wait that would
 * outlast the step's deadline is not slept: the step stops (its signal aborts) and the engine
 * re-enqueues it to start when the provider allows, so no function idles for minutes.
 */
import type { ProviderPacer } from '../connectors/discovery';

export interface BucketState {
  /** Calls left in the current window, as last reported minus those sent since. */
  remaining?: number | undefined;
  resetAtMs?: number | undefined;
  /** A 429's Retry-After: nothing goes before it. */
  retryAtMs?: number | undefined;
}

export interface StepPacer extends ProviderPacer {
  /** Set when a wait would have outlasted the step: the step ends and resumes at this time. */
  readonly deferUntilMs: number | undefined;
  /** Milliseconds spent waiting for the provider's limits. */
  readonly waitedMs: number;
  /** Ends the step early to resume at `untilMs` (a throttled answer the step cannot wait out). */
  defer(untilMs: number): void;
  /** Counts a wait made outside the pacer (a throttled answer slept by the engine). */
  waited(ms: number): void;
  /** What the provider last said of each bucket, for the next step (saved in the run's progress). */
  snapshot(): Record<string, BucketState>;
}

export class StepDeferredError extends Error {
  constructor() {
    super('The step stops here and resumes when the provider allows');
    this.name = 'StepDeferredError';
  }
}

export function createStepPacer(options: { now: () => number; deadlineMs: number; abort: () => void; initial?: Record<string, BucketState> | undefined }): StepPacer {
  // A step starts where the last one left each bucket: a new step must not spend a quota that is gone.
  const buckets = new Map<string, BucketState>(Object.entries(options.initial ?? {}).map(([name, state]) => [name, { ...state }]));
  let requests = 0;
  let waitedMs = 0;
  let deferUntilMs: number | undefined;

  const stateOf = (bucket: string): BucketState => {
    let state = buckets.get(bucket);
    if (!state) buckets.set(bucket, (state = { remaining: undefined, resetAtMs: undefined, retryAtMs: undefined }));
    return state;
  };

  const defer = (untilMs: number) => {
    deferUntilMs = Math.max(deferUntilMs ?? 0, untilMs);
    options.abort();
  };

  /** When the next request to this bucket may go, or undefined for now. */
  const notBefore = (state: BucketState, now: number): number | undefined => {
    if (state.retryAtMs !== undefined && state.retryAtMs > now) return state.retryAtMs;
    if (state.remaining !== undefined && state.remaining <= 0 && state.resetAtMs !== undefined && state.resetAtMs > now) return state.resetAtMs;
    return undefined;
  };

  return {
    get requests() {
      return requests;
    },
    get waitedMs() {
      return waitedMs;
    },
    get deferUntilMs() {
      return deferUntilMs;
    },
    defer,
    waited(ms) {
      waitedMs += ms;
    },
    snapshot() {
      const now = options.now();
      const live = [...buckets].filter(([, state]) => (state.resetAtMs ?? 0) > now || (state.retryAtMs ?? 0) > now);
      // DynamoDB keeps no undefined: only the values that are known.
      return Object.fromEntries(live.map(([name, state]) => [name, JSON.parse(JSON.stringify(state)) as BucketState]));
    },
    async wait(bucket, signal) {
      const state = stateOf(bucket);
      for (;;) {
        if (signal.aborted) throw new StepDeferredError();
        const now = options.now();
        const until = notBefore(state, now);
        if (until === undefined) break;
        if (until > options.deadlineMs) {
          defer(until);
          throw new StepDeferredError();
        }
        // The window has reset when we wake: what is left is unknown until the next answer.
        const pause = until - now;
        await sleep(pause, signal);
        waitedMs += pause;
        if (state.resetAtMs !== undefined && state.resetAtMs <= options.now()) {
          state.remaining = undefined;
          state.resetAtMs = undefined;
        }
      }
      if (state.remaining !== undefined) state.remaining -= 1;
      requests += 1;
    },
    observe(bucket, reported) {
      const state = stateOf(bucket);
      if (reported.remaining !== undefined) state.remaining = reported.remaining;
      if (reported.resetAtMs !== undefined) state.resetAtMs = reported.resetAtMs;
      if (reported.retryAtMs !== undefined) state.retryAtMs = reported.retryAtMs;
    },
  };
}

/** Only called right after `wait` saw the signal not aborted (nothing runs in between). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new StepDeferredError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
