/**
 * When a daily schedule fires next, in its IANA time zone, across daylight-saving changes:
 * a skipped wall-clock time runs shifted by the gap (RFC 5545, Temporal's `compatible`), a
 * repeated one runs once, at its first occurrence; zones without DST and with half-hour
 * offsets; and the schedule never fires twice for one local day.
 */
import { describe, expect, it } from 'vitest';
import { acceptedTimeZone, nextRunAt } from '../../shared/runs/schedule';

const at = (iso: string) => new Date(iso);
const next = (hour: number, minute: number, timezone: string, after: string) => nextRunAt({ hour, minute, timezone }, at(after)).toISOString();

describe('nextRunAt', () => {
  it('fires later the same day, or the next day once the time has passed (UTC by default)', () => {
    expect(nextRunAt({ hour: 4, minute: 30 }, at('2026-11-23T03:00:00Z')).toISOString()).toBe('2026-11-23T04:30:00.000Z');
    expect(nextRunAt({ hour: 4, minute: 30 }, at('2026-11-23T04:30:00Z')).toISOString()).toBe('2026-11-24T04:30:00.000Z');
    expect(next(0, 0, 'UTC', '2026-12-31T23:59:59Z')).toBe('2027-01-01T00:00:00.000Z');
  });

  it('follows the zone offset, with and without daylight saving time', () => {
    expect(next(9, 0, 'Europe/Paris', '2026-11-23T00:00:00Z')).toBe('2026-11-23T08:00:00.000Z'); // CET, +1
    expect(next(9, 0, 'Europe/Paris', '2026-07-01T00:00:00Z')).toBe('2026-07-01T07:00:00.000Z'); // CEST, +2
    expect(next(9, 0, 'Asia/Kolkata', '2026-07-01T00:00:00Z')).toBe('2026-07-01T03:30:00.000Z'); // +5:30, no DST
    expect(next(9, 0, 'Australia/Sydney', '2026-07-01T00:00:00Z')).toBe('2026-07-01T23:00:00.000Z'); // AEST +10 (southern winter)
    expect(next(9, 0, 'Australia/Sydney', '2027-01-10T00:00:00Z')).toBe('2027-01-10T22:00:00.000Z'); // AEDT +11
  });

  it('runs a wall-clock time that spring-forward skips shifted by the gap, then on time again', () => {
    // America/New_York springs forward on 2027-03-14 at 02:00 → 03:00: 02:30 does not exist.
    expect(next(2, 30, 'America/New_York', '2027-03-13T12:00:00Z')).toBe('2027-03-14T07:30:00.000Z'); // 03:30 EDT
    expect(next(2, 30, 'America/New_York', '2027-03-14T07:30:00Z')).toBe('2027-03-15T06:30:00.000Z'); // 02:30 EDT
    expect(next(2, 30, 'America/New_York', '2027-03-13T06:00:00Z')).toBe('2027-03-13T07:30:00.000Z'); // the day before: 02:30 EST
    // Europe/London: 2027-03-28 01:00 → 02:00.
    expect(next(1, 15, 'Europe/London', '2027-03-27T12:00:00Z')).toBe('2027-03-28T01:15:00.000Z'); // 02:15 BST
  });

  it('runs a wall-clock time that fall-back repeats once, at its first occurrence', () => {
    // America/New_York falls back on 2027-11-07 at 02:00 → 01:00: 01:30 happens twice.
    expect(next(1, 30, 'America/New_York', '2027-11-06T12:00:00Z')).toBe('2027-11-07T05:30:00.000Z'); // 01:30 EDT
    expect(next(1, 30, 'America/New_York', '2027-11-07T05:30:00Z')).toBe('2027-11-08T06:30:00.000Z'); // not 06:30 the same day
    expect(next(1, 30, 'America/New_York', '2027-11-07T05:31:00Z')).toBe('2027-11-08T06:30:00.000Z');
  });

  it('fires exactly once per local day through a whole year of a DST zone', () => {
    let cursor = at('2027-01-01T00:00:00Z');
    const days = new Set<string>();
    for (let i = 0; i < 365; i++) {
      cursor = nextRunAt({ hour: 2, minute: 30, timezone: 'America/New_York' }, cursor);
      const localDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit', day: '2-digit' }).format(cursor);
      days.add(localDay);
    }
    expect(days.size).toBe(365);
  });
});

describe('acceptedTimeZone', () => {
  it('fixes the letter case of a name, keeps any other accepted spelling as given, and refuses unknown zones', () => {
    expect(acceptedTimeZone('europe/paris')).toBe('Europe/Paris');
    expect(acceptedTimeZone('Asia/Kathmandu')).toBe('Asia/Kathmandu'); // ICU's canonical name is the old Asia/Katmandu
    expect(acceptedTimeZone('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(acceptedTimeZone('UTC')).toBe('UTC');
    expect(acceptedTimeZone('Mars/Olympus_Mons')).toBeUndefined();
    expect(acceptedTimeZone('')).toBeUndefined();
  });
});
