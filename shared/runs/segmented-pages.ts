/**
 * One list paged across several queries in turn (an inventory's shards, a search's kinds, the
 * name index's partitions). The position is the segment's key and that segment's own cursor:
 * a key, not an index, so a cursor still points at the same place when segments are added
 * before it (the name index gains an initial between two pages).
 */
import { ValidationError } from '../errors';
import type { Page, PageRequest } from '../store/table-client';

export interface KeyedSegment<T> {
  /** Unique among the list's segments. */
  key: string;
  read(request: PageRequest): Promise<Page<T>>;
}

/** Segments keyed by their position: for lists whose segments never change. */
export const fixedSegments = <T>(reads: readonly ((request: PageRequest) => Promise<Page<T>>)[]): KeyedSegment<T>[] =>
  reads.map((read, i) => ({ key: String(i), read }));

export async function pageAcross<T>(segments: readonly KeyedSegment<T>[], query: PageRequest): Promise<Page<T>> {
  let { segment, inner } = decodeSegmentCursor(query.cursor, segments);
  const items: T[] = [];
  while (segment < segments.length && items.length < query.limit) {
    const page = await segments[segment]!.read({ limit: query.limit - items.length, cursor: inner });
    items.push(...page.items);
    if (page.nextCursor) {
      inner = page.nextCursor;
      break;
    }
    segment += 1;
    inner = undefined;
  }
  const more = segment < segments.length && (inner !== undefined || items.length >= query.limit);
  return { items, nextCursor: more ? encodeJsonCursor({ s: segments[segment]!.key, c: inner ?? null }) : null };
}

function decodeSegmentCursor<T>(cursor: string | undefined, segments: readonly KeyedSegment<T>[]): { segment: number; inner: string | undefined } {
  if (!cursor) return { segment: 0, inner: undefined };
  const value = decodeJsonCursor(cursor, (v): v is { s: string; c: string | null } => typeof v.s === 'string' && (v.c === null || typeof v.c === 'string'));
  const segment = segments.findIndex((s) => s.key === value.s);
  if (segment < 0) throw notThisList();
  return { segment, inner: value.c ?? undefined };
}

export const encodeJsonCursor = (value: Record<string, unknown>) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

/** A cursor these lists made (base64url JSON of their position), or a 400 naming the cursor. */
export function decodeJsonCursor<T>(cursor: string, valid: (value: Record<string, unknown>) => value is Record<string, unknown> & T): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed) || !valid(parsed as Record<string, unknown>)) throw notThisList();
  return parsed as T;
}

const notThisList = () => new ValidationError([{ path: 'cursor', message: 'is not a cursor of this list' }]);
