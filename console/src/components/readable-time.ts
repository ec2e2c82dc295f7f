/**
 * How the console writes a moment from the API (RFC 3339, UTC) for people: relative to now
 * ("3 minutes ago", "in 2 hours") with the exact time in the browser's own locale and time zone
 * for the tooltip. Plain TypeScript, so the browser tests can format the same way.
 */

// Fields, not dateStyle/timeStyle: those two refuse to be combined with timeZoneName.
export const READABLE_TIME_FIELDS: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit', timeZoneName: 'short' };

const readable = new Intl.DateTimeFormat(undefined, READABLE_TIME_FIELDS);
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

/** The exact time for `value`; a value that is not a date is shown as it came. */
export function readableTime(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : readable.format(date);
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400], ['month', 30 * 86_400], ['week', 7 * 86_400], ['day', 86_400], ['hour', 3_600], ['minute', 60],
];

/** `value` relative to `now`: "just now" within a minute, else the largest whole unit ("5 minutes ago", "in 2 days"). */
export function relativeTime(value: string, now: number = Date.now()): string {
  const at = new Date(value).getTime();
  if (Number.isNaN(at)) return value;
  const seconds = Math.round((at - now) / 1000);
  if (Math.abs(seconds) < 60) return 'just now';
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.trunc(seconds / size), unit);
  }
  return relative.format(Math.trunc(seconds / 60), 'minute');
}
