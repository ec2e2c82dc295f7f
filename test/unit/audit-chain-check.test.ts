/**
 * The chain walk of `verify-audit` over a log read from a table double (the events of a log in
 * any stored order, its head) and an anchor double (the heads its appends recorded). Each kind
 * of break is reported at its first link.
 */
import { describe, expect, it } from 'vitest';
import { auditEventDigest, linkAuditEvent } from '../../shared/audit/audit-chain';
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

const linksOf = (events: StoredItem[]): ChainLink[] => events.map((e) => ({ seq: e.seq as number, digest: e.digest as string }));

/**
 * The reads the check makes, answered from memory (two pages when there are more than two
 * events); the anchor holds the heads given, by default the head after each event's append.
 */
function tableWith(events: StoredItem[], head: ChainLink | undefined, anchored: ChainLink[] = linksOf(events)): Pick<Deps, 'table' | 'part'> {
  const table = {
    queryRaw: (_prefix: unknown, options: { startKey?: Record<string, unknown> }) =>
      Promise.resolve(options.startKey ? { items: events.slice(2), lastKey: undefined } : { items: events.slice(0, 2), lastKey: events.length > 2 ? { page: 2 } : undefined }),
    get: () => Promise.resolve(head),
  };
  const anchor = { heads: () => Promise.resolve([...anchored].sort((a, b) => a.seq - b.seq)), record: () => Promise.resolve() };
  return { table: table as unknown as Deps['table'], part: (<T>() => anchor as unknown as T) };
}

/** Event `k` (1-based) deleted, the later ones renumbered and their own digests recomputed: what a table writer can do. */
function withoutEvent(events: StoredItem[], k: number): StoredItem[] {
  return events.flatMap((event, i) => {
    if (i + 1 < k) return [event];
    if (i + 1 === k) return [];
    const moved: StoredItem = { ...event, seq: i };
    return [{ ...moved, digest: auditEventDigest(moved) }];
  });
}

const chain = { tenantId: 'ten_1' };
const workspaceChain = { tenantId: 'ten_1', workspaceId: 'ws_1' };

describe('audit chain check', () => {
  it('an intact, anchored chain in any stored order is ok; an empty workspace log without a head or anchor too', async () => {
    const events = chainOf(4);
    expect(await checkAuditChain(tableWith([...events].reverse(), headOf(events)), chain)).toEqual({ ok: true, count: 4 });
    // A head per append, or only the newest (the appends before it failed to record theirs).
    expect(await checkAuditChain(tableWith(events, headOf(events), [headOf(events)!]), chain)).toEqual({ ok: true, count: 4 });
    expect(await checkAuditChain(tableWith([], undefined), workspaceChain)).toEqual({ ok: true, count: 0 });
  });

  it('an empty identity log is broken: every tenant has one, starting with tenant_created', async () => {
    expect(await checkAuditChain(tableWith([], undefined), chain)).toEqual({
      ok: false, count: 0, brokenAt: { seq: 1, eventId: null, reason: "the identity log is empty: every tenant's log starts with tenant_created (the whole log was deleted)" },
    });
  });

  it('a deletion covered by renumbering the later events and recomputing their digests is a break at the first moved event (its prev_digest)', async () => {
    const events = chainOf(5);
    const rewritten = withoutEvent(events, 3);
    // Anchored: only what a rewrite cannot remove, the heads up to the deleted event.
    expect(await checkAuditChain(tableWith(rewritten, headOf(rewritten), linksOf(events.slice(0, 2))), chain)).toEqual({
      ok: false, count: 2, brokenAt: { seq: 3, eventId: 'evt_4', reason: 'prev_digest is not the digest of the event before it' },
    });
  });

  it('a chain cut after its anchored head (the newest events deleted, the head moved back) is broken', async () => {
    const events = chainOf(4);
    const cut = events.slice(0, 3);
    expect(await checkAuditChain(tableWith(cut, headOf(cut), linksOf(events)), chain)).toEqual({
      ok: false, count: 3, brokenAt: { seq: 4, eventId: null, reason: 'the anchor recorded the head at seq 4: events after seq 3 are missing (the chain was cut)' },
    });
    expect(await checkAuditChain(tableWith([], undefined, linksOf(events)), workspaceChain)).toMatchObject({
      ok: false, brokenAt: { seq: 1, reason: 'the anchor recorded the head at seq 4: events after seq 0 are missing (the chain was cut, or the whole log deleted)' },
    });
  });

  it('a chain rebuilt with other digests, or with events no anchored head covers, is broken', async () => {
    const events = chainOf(3);
    const other = chainOf(3);
    other[1] = { ...other[1]!, payload: { n: 'forged' } };
    const forged: StoredItem[] = [];
    let previous: ChainLink | null = null;
    for (const e of other) {
      // The event as written before linking: its content without the three chain fields.
      const content: StoredItem = Object.fromEntries(Object.entries(e).filter(([name]) => !['seq', 'prev_digest', 'digest'].includes(name)));
      const link = linkAuditEvent(content, previous);
      forged.push({ ...content, ...link });
      previous = { seq: link.seq, digest: link.digest };
    }
    expect(await checkAuditChain(tableWith(forged, headOf(forged), linksOf(events)), chain)).toEqual({
      ok: false, count: 1, brokenAt: { seq: 2, eventId: 'evt_2', reason: 'the anchor recorded another digest for seq 2: the chain was rewritten from there' },
    });
    expect(await checkAuditChain(tableWith(events, headOf(events), linksOf(events.slice(0, 1))), chain)).toMatchObject({
      ok: false, count: 1, brokenAt: { seq: 2, eventId: 'evt_2', reason: expect.stringContaining('events after seq 1 are not anchored') as string },
    });
    expect(await checkAuditChain(tableWith(events, headOf(events), []), chain)).toMatchObject({ ok: false, count: 0, brokenAt: { seq: 1, eventId: 'evt_1' } });
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
