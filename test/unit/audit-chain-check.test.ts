/**
 * The chain walk of `verify-audit` over a log read from a table double: the events of a log in
 * any stored order, its head. Each kind of break is reported at its first link.
 */
import { describe, expect, it } from 'vitest';
import { linkAuditEvent } from '../../shared/audit/audit-chain';
import { checkAuditChain } from '../../shared/audit/audit-chain-check';
import type { Deps } from '../../shared/deps';
import type { ChainLink, StoredItem } from '../../shared/store/table-client';

/** A log of `n` correctly linked events. */
function chainOf(n: number): StoredItem[] {
  const events: StoredItem[] = [];
  let previous: ChainLink | null = null;
  for (let i = 1; i <= n; i++) {
    const event: StoredItem = { event_id: `evt_${i}`, action: 'user_updated', payload: { n: i } };
    const link = linkAuditEvent(event, previous);
    events.push({ ...event, ...link });
    previous = { seq: link.seq, digest: link.digest };
  }
  return events;
}

const headOf = (events: StoredItem[]): ChainLink | undefined => {
  const last = events.at(-1);
  return last ? { seq: last.seq as number, digest: last.digest as string } : undefined;
};

/** The two reads the walk makes, answered from memory (two pages when there are more than two events). */
function tableWith(events: StoredItem[], head: ChainLink | undefined): Pick<Deps, 'table'> {
  const table = {
    queryRaw: (_prefix: unknown, options: { startKey?: Record<string, unknown> }) =>
      Promise.resolve(options.startKey ? { items: events.slice(2), lastKey: undefined } : { items: events.slice(0, 2), lastKey: events.length > 2 ? { page: 2 } : undefined }),
    get: () => Promise.resolve(head),
  };
  return { table: table as unknown as Deps['table'] };
}

const chain = { tenantId: 'ten_1' };

describe('audit chain check', () => {
  it('an intact chain in any stored order is ok; an empty log without a head too', async () => {
    const events = chainOf(4);
    expect(await checkAuditChain(tableWith([...events].reverse(), headOf(events)), chain)).toEqual({ ok: true, count: 4 });
    expect(await checkAuditChain(tableWith([], undefined), chain)).toEqual({ ok: true, count: 0 });
  });

  it('an event without a sequence number is the first break', async () => {
    const events = chainOf(3);
    const stray = { event_id: 'evt_stray', action: 'user_updated' };
    expect(await checkAuditChain(tableWith([...events, stray], headOf(events)), chain)).toEqual({
      ok: false, count: 0, brokenAt: { seq: 1, eventId: 'evt_stray', reason: 'the event has no sequence number (written outside the chain, or edited)' },
    });
  });

  it('a second event with a taken seq is a break at it', async () => {
    const events = chainOf(3);
    const copy = { ...events[1]!, event_id: 'evt_copy' };
    const result = await checkAuditChain(tableWith([...events, copy], headOf(events)), chain);
    expect(result).toMatchObject({ ok: false, count: 2, brokenAt: { seq: 3, reason: 'a second event with seq 2' } });
  });

  it('an event changed after it was written is a break at it', async () => {
    const events = chainOf(3);
    events[1] = { ...events[1]!, payload: { n: 'changed' } };
    expect(await checkAuditChain(tableWith(events, headOf(events)), chain)).toEqual({
      ok: false, count: 1, brokenAt: { seq: 2, eventId: 'evt_2', reason: 'the digest does not match the event (it was changed)' },
    });
  });

  it('a head that names an earlier event, or no head at all, is a break at the last event', async () => {
    const events = chainOf(3);
    const expected = { ok: false, count: 3, brokenAt: { seq: 3, eventId: null, reason: "the chain's head does not name the last event" } };
    expect(await checkAuditChain(tableWith(events, headOf(events.slice(0, 2))), chain)).toEqual(expected);
    expect(await checkAuditChain(tableWith(events, undefined), chain)).toEqual(expected);
  });
});
