/**
 * When a daily schedule fires next: the wall-clock time `hour:minute` in the schedule's IANA
 * time zone, as an instant (UTC).
 *
 * Daylight saving time follows RFC 5545 (section 3.3.5) and Temporal's `compatible`
 * disambiguation: a wall-clock time that a spring-forward skips is taken with the offset from
 * before the gap (02:30 in a gap of one hour runs at 03:30), and one that a fall-back repeats
 * runs once, at its first occurrence. So a connection runs exactly once every local day.
 */
import type { ConnectionSchedule } from '../store/records';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock reading in `timeZone` at `utcMs`, expressed as if it were UTC milliseconds. */
function wallClockMs(utcMs: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(utcMs))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return Date.UTC(parts.year!, parts.month! - 1, parts.day, parts.hour, parts.minute, parts.second);
}

/** The zone's UTC offset at an instant, in milliseconds (whole seconds: sub-second parts are dropped). */
function offsetMs(utcMs: number, timeZone: string): number {
  const truncated = Math.floor(utcMs / 1000) * 1000;
  return wallClockMs(truncated, timeZone) - truncated;
}

/** The instant at which the wall clock of `timeZone` reads `wallMs`, disambiguated as described above. */
export function instantOfWallClock(wallMs: number, timeZone: string): number {
  // Offsets a day either side bracket any single transition near this wall-clock time.
  const before = offsetMs(wallMs - DAY_MS, timeZone);
  const after = offsetMs(wallMs + DAY_MS, timeZone);
  const valid = [...new Set([before, after])].map((offset) => wallMs - offset).filter((utc) => offsetMs(utc, timeZone) === wallMs - utc);
  if (valid.length > 0) return Math.min(...valid); // a repeated hour: the first occurrence
  return wallMs - before; // a skipped hour: shifted forward by the gap
}

/** The first firing of the schedule strictly after `after`. */
export function nextRunAt(schedule: Pick<ConnectionSchedule, 'hour' | 'minute' | 'timezone'>, after: Date): Date {
  const timeZone = schedule.timezone ?? 'UTC';
  const localNow = wallClockMs(after.getTime(), timeZone);
  const localMidnight = Math.floor(localNow / DAY_MS) * DAY_MS;
  for (let day = -1; day <= 2; day++) {
    const wall = localMidnight + day * DAY_MS + schedule.hour * 60 * MINUTE_MS + schedule.minute * MINUTE_MS;
    const instant = instantOfWallClock(wall, timeZone);
    if (instant > after.getTime()) return new Date(instant);
  }
  // Unreachable: one of four consecutive local days has a firing after `after`.
  throw new Error(`no firing found for ${schedule.hour}:${schedule.minute} in ${timeZone}`);
}

/**
 * The name to keep for a time zone the runtime knows, or undefined. A name that differs from the
 * runtime's own only in letter case takes the runtime's spelling (`europe/paris` →
 * `Europe/Paris`); any other accepted name is kept exactly as given, since ICU answers some
 * current IANA names with their deprecated aliases (`Asia/Kathmandu` → `Asia/Katmandu`) and a
 * client must get back the name it sent.
 */
export function acceptedTimeZone(name: string): string | undefined {
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
  return resolved.toLowerCase() === name.toLowerCase() ? resolved : name;
}
