/**
 * How the console writes a moment from the API (RFC 3339, UTC) for people: in the browser's
 * own locale and time zone. Plain TypeScript, so the browser tests can format the same way.
 */

// Fields, not dateStyle/timeStyle: those two refuse to be combined with timeZoneName.
export const READABLE_TIME_FIELDS: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit', timeZoneName: 'short' };

const readable = new Intl.DateTimeFormat(undefined, READABLE_TIME_FIELDS);

/** The text shown for `value`; a value that is not a date is shown as it came. */
export function readableTime(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : readable.format(date);
}
