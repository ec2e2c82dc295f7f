/** Time as a dependency, so tests can move it (token expiry, rate-limit windows). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export const epochSeconds = (clock: Clock): number => Math.floor(clock.now().getTime() / 1000);

export const isoNow = (clock: Clock): string => clock.now().toISOString();
