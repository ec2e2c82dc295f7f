/**
 * A value read from elsewhere (key material from Secrets Manager, a key file or the table) and
 * kept for a while: once `ttlMs` has passed since a read began, the next `get` reads again, so
 * a key rotation reaches warm functions without a restart. Callers at the same moment share one
 * read; a failed read is not kept (the next caller tries again).
 *
 * `refresh` reads again before the time is up (a token signed by a key not yet seen), but no
 * more than once per `minRefreshIntervalMs`, so a stream of made-up key ids cannot turn every
 * request into a read.
 */
import type { Clock } from '../clock';

/** The least time between two reads before the time is up (an unknown kid, a cursor no held key opens). */
export const EARLY_REFRESH_INTERVAL_SECONDS = 10;

export class ExpiringValue<T> {
  private held: { value: T; readAt: number } | undefined;
  private reading: Promise<T> | undefined;
  private lastRefreshAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly read: () => Promise<T>,
    private readonly clock: Clock,
    private readonly ttlMs: number,
    private readonly minRefreshIntervalMs = 0,
  ) {}

  get(): Promise<T> {
    const now = this.clock.now().getTime();
    if (this.held && now - this.held.readAt < this.ttlMs) return Promise.resolve(this.held.value);
    return this.readAgain();
  }

  /**
   * A fresh read, or the one already under way; when the last refresh is too recent, what is
   * held (the caller then decides with what it has).
   */
  refresh(): Promise<T> {
    if (this.reading) return this.reading;
    const now = this.clock.now().getTime();
    if (this.held && now - this.lastRefreshAt < this.minRefreshIntervalMs) return Promise.resolve(this.held.value);
    this.lastRefreshAt = now;
    return this.readAgain();
  }

  private readAgain(): Promise<T> {
    if (!this.reading) {
      // The age counts from the start of the read: what it returns may be that old already.
      const readAt = this.clock.now().getTime();
      this.reading = this.read()
        .then((value) => {
          this.held = { value, readAt };
          return value;
        })
        .finally(() => {
          this.reading = undefined;
        });
    }
    return this.reading;
  }
}
