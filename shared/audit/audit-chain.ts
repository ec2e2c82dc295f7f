/**
 * The hash chain of an audit log. Each event carries `seq` (1, 2, …), `prev_digest` (the digest
 * of the event before it, null for the first) and `digest`, the SHA-256 (hex) of the canonical
 * JSON of all of its stored fields but `digest` itself (so `seq` and `prev_digest` are covered).
 * The chain's head item holds the last seq and digest; appends move it in their transaction
 * (`TableClient.chainedPutItem`), so DynamoDB serialises them.
 *
 * Canonical JSON: object keys sorted by UTF-16 code unit, undefined members left out (as the
 * table client stores them), no whitespace, strings and numbers as JSON.stringify writes them.
 */
import { createHash } from 'node:crypto';
import type { ChainLink, StoredItem } from '../store/table-client';

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('An audit event cannot hold a number that is not finite');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.filter((v) => v !== undefined).map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  throw new Error(`An audit event cannot hold a ${typeof value}`);
}

/** The digest of an event (its stored fields without the table's key attributes); `digest` itself is left out. */
export function auditEventDigest(event: StoredItem): string {
  const content = { ...event };
  delete content.digest;
  return createHash('sha256').update(canonicalJson(content), 'utf8').digest('hex');
}

/** The chain fields of `event` appended after `previous`. */
export function linkAuditEvent(event: StoredItem, previous: ChainLink | null): { seq: number; prev_digest: string | null; digest: string } {
  const seq = (previous?.seq ?? 0) + 1;
  const prev_digest = previous?.digest ?? null;
  return { seq, prev_digest, digest: auditEventDigest({ ...event, seq, prev_digest }) };
}
