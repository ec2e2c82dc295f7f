/**
 * Walks one audit log's hash chain (`npm run tessera -- verify-audit`): every event in seq
 * order 1..n without a gap, each naming the digest of the one before, each digest matching the
 * event's content, and the chain's head naming the last one. The first link that fails is
 * reported with its seq and event id.
 */
import type { Deps } from '../deps';
import { keys } from '../store/keys';
import { withoutKeys, type ChainLink, type StoredItem } from '../store/table-client';
import { auditEventDigest } from './audit-chain';

export interface AuditChainRef {
  tenantId: string;
  /** The workspace's log; without it, the tenant's identity log. */
  workspaceId?: string | undefined;
}

export type AuditChainCheck =
  | { ok: true; count: number }
  | { ok: false; count: number; brokenAt: { seq: number; eventId: string | null; reason: string } };

interface ChainedEvent {
  event_id: string;
  seq?: unknown;
  prev_digest?: unknown;
  digest?: unknown;
}

export async function checkAuditChain(deps: Pick<Deps, 'table'>, chain: AuditChainRef): Promise<AuditChainCheck> {
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
  return { ok: true, count };
}
