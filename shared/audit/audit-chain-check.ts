/**
 * Walks one audit log's hash chain (`npm run tessera -- verify-audit`): every event in seq
 * order 1..n without a gap, each naming the digest of the one before, each digest matching the
 * event's content, the chain's head naming the last one; then compares the chain with the heads
 * its appends recorded in the audit anchor (`audit-anchor.ts`), which the table cannot take
 * back: every anchored head must be an event of the chain with that digest, and the newest must
 * be the chain's last. The first link that fails is reported with its seq and event id.
 *
 * A tenant's identity log starts with `tenant_created`: an empty one is broken (deleted). A
 * workspace's log may be empty (a workspace without connections), unless the anchor knows of
 * events in it.
 */
import type { Deps } from '../deps';
import { keys } from '../store/keys';
import { withoutKeys, type ChainLink, type StoredItem } from '../store/table-client';
import type { AuditChainRef } from './audit-anchor';
import { auditEventDigest } from './audit-chain';
import { auditAnchor } from './create-audit-anchor';

export type AuditChainCheck =
  | { ok: true; count: number }
  | { ok: false; count: number; brokenAt: { seq: number; eventId: string | null; reason: string } };

interface ChainedEvent {
  event_id: string;
  seq?: unknown;
  prev_digest?: unknown;
  digest?: unknown;
}

export async function checkAuditChain(deps: Pick<Deps, 'table' | 'part'>, chain: AuditChainRef): Promise<AuditChainCheck> {
  // The anchor first: an append that lands during the check then shows as not anchored yet
  // (a check again clears it), never as a cut.
  const anchored = await deps.part(auditAnchor).heads(chain);
  const prefix = chain.workspaceId ? keys.workspaceAuditEvents(chain.tenantId, chain.workspaceId) : keys.identityAuditEvents(chain.tenantId);
  const headKey = chain.workspaceId ? keys.workspaceAuditChainHead(chain.tenantId, chain.workspaceId) : keys.identityAuditChainHead(chain.tenantId);
  const events: StoredItem[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await deps.table.queryRaw(prefix, { startKey });
    events.push(...page.items.map((item) => withoutKeys<StoredItem>(item)));
    startKey = page.lastKey;
  } while (startKey);
  const head = await deps.table.get<ChainLink>(headKey);

  // An event without a number sorts first: it is the first break.
  const seqOf = (e: StoredItem) => (typeof e.seq === 'number' ? e.seq : -1);
  events.sort((a, b) => seqOf(a) - seqOf(b));
  const broken = (index: number, eventId: string | null, reason: string): AuditChainCheck => ({ ok: false, count: index, brokenAt: { seq: index + 1, eventId, reason } });

  let previous: string | null = null;
  for (const [index, item] of events.entries()) {
    const event = item as unknown as ChainedEvent;
    const expected = index + 1;
    if (typeof event.seq !== 'number') return broken(index, event.event_id, 'the event has no sequence number (written outside the chain, or edited)');
    if (event.seq < expected) return broken(index, event.event_id, `a second event with seq ${event.seq}`);
    if (event.seq > expected) return broken(index, event.event_id, `seq ${expected} is missing: the next event found is seq ${event.seq}`);
    if (event.prev_digest !== previous) return broken(index, event.event_id, 'prev_digest is not the digest of the event before it');
    if (event.digest !== auditEventDigest(item)) return broken(index, event.event_id, 'the digest does not match the event (it was changed)');
    previous = event.digest;
  }
  const count = events.length;
  const headSeq = head?.seq ?? 0;
  if (headSeq !== count || (head?.digest ?? null) !== previous) {
    return headSeq > count
      ? { ok: false, count, brokenAt: { seq: count + 1, eventId: null, reason: `the chain's head names seq ${headSeq}: events after seq ${count} are missing` } }
      : { ok: false, count, brokenAt: { seq: count, eventId: null, reason: "the chain's head does not name the last event" } };
  }

  // The chain holds together; now against what the anchor recorded outside the table.
  const newest = anchored.at(-1)?.seq ?? 0;
  if (newest > count) {
    return {
      ok: false,
      count,
      brokenAt: { seq: count + 1, eventId: null, reason: `the anchor recorded the head at seq ${newest}: events after seq ${count} are missing (the chain was cut${count === 0 ? ', or the whole log deleted' : ''})` },
    };
  }
  for (const recorded of anchored) {
    const event = events[recorded.seq - 1] as unknown as ChainedEvent | undefined;
    if (event && event.digest !== recorded.digest) {
      return broken(recorded.seq - 1, event.event_id, `the anchor recorded another digest for seq ${recorded.seq}: the chain was rewritten from there`);
    }
  }
  if (count === 0) {
    if (chain.workspaceId) return { ok: true, count };
    return { ok: false, count, brokenAt: { seq: 1, eventId: null, reason: "the identity log is empty: every tenant's log starts with tenant_created (the whole log was deleted)" } };
  }
  if (newest < count) {
    const first = events[newest] as unknown as ChainedEvent;
    return broken(
      newest,
      first.event_id,
      newest === 0
        ? 'no head of this chain was ever anchored: its events were written outside the API (or before anchoring)'
        : `events after seq ${newest} are not anchored: written outside the API, or their anchor was not recorded (an append anchors the chain again; an append in flight: check again)`,
    );
  }
  return { ok: true, count };
}
