import type { Clock } from '../../shared/clock';

/** Real time plus an offset the test can move forward (token expiry, TOTP steps, windows). */
export class MovableClock implements Clock {
  private offsetMs = 0;
  private heldAtMs: number | undefined;
  now(): Date {
    return new Date((this.heldAtMs ?? Date.now()) + this.offsetMs);
  }
  /** Stops real time from moving it, so that calls a test makes one after another read the same second however slow the machine is; `advance` still moves it. */
  hold(): void {
    this.heldAtMs ??= Date.now();
  }
  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }
  epochSeconds(): number {
    return Math.floor(this.now().getTime() / 1000);
  }
}
