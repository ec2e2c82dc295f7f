import type { Clock } from '../../shared/clock';

/** Real time plus an offset the test can move forward (token expiry, TOTP steps, windows). */
export class MovableClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }
  epochSeconds(): number {
    return Math.floor(this.now().getTime() / 1000);
  }
}
