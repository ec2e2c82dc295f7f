/**
 * Building one discovery page: each entity and relationship once (a page of policies names the
 * same resource many times; a user reached through two groups holds the same policy twice), in
 * the order first seen, so the same provider answer always makes the same page.
 *
 * The cursor is checked here too: it is stored in the run record between steps, so a cursor
 * that grew past its budget is a connector bug that must surface as a failed read, not as a
 * run record that cannot be written.
 */
import type { RemediationItem } from './connector';
import type { EntityRef, ObservedEntity, ObservedRelationship, PageOutcome, RelationshipKind, TrackCursor } from './discovery';
import { unexpectedAnswer } from './outcome';

/** The run record keeps cursors under 8 KiB; this leaves room for the engine's own fields. */
export const MAX_CURSOR_BYTES = 6 * 1024;

export class PageBuilder {
  private readonly entities = new Map<string, ObservedEntity>();
  private readonly relationships = new Map<string, ObservedRelationship>();

  /** Adds the entity unless this page already holds it; answers its reference. */
  entity(entity: ObservedEntity): EntityRef {
    const key = refKey(entity);
    if (!this.entities.has(key)) this.entities.set(key, entity);
    return { kind: entity.kind, source_id: entity.source_id };
  }

  relate(kind: RelationshipKind, from: EntityRef, to: EntityRef, track?: string): void {
    const key = `${kind}\u0000${refKey(from)}\u0000${refKey(to)}`;
    if (this.relationships.has(key)) return;
    this.relationships.set(key, track === undefined ? { kind, from: ref(from), to: ref(to) } : { kind, from: ref(from), to: ref(to), track });
  }

  get size(): { entities: number; relationships: number } {
    return { entities: this.entities.size, relationships: this.relationships.size };
  }

  page(next: TrackCursor | null, provider: string): PageOutcome {
    if (next !== null && Buffer.byteLength(JSON.stringify(next)) > MAX_CURSOR_BYTES) {
      return failed([unexpectedAnswer(provider, 'the next cursor outgrew its budget')]);
    }
    return { kind: 'page', entities: [...this.entities.values()], relationships: [...this.relationships.values()], next };
  }
}

export function refused(remediation: RemediationItem[]): PageOutcome {
  return { kind: 'refused', remediation };
}

export function failed(remediation: RemediationItem[]): PageOutcome {
  return { kind: 'failed', remediation };
}

/**
 * The last line of defence of "never throw" for a page read: a bug or an unforeseen answer
 * shape becomes a failed read naming only the error's class (its message may hold request
 * details).
 */
export async function readNeverThrows(provider: string, read: () => Promise<PageOutcome>): Promise<PageOutcome> {
  try {
    return await read();
  } catch (error) {
    const name = error instanceof Error ? error.name : typeof error;
    return failed([unexpectedAnswer(provider, `discovery stopped on ${name}`)]);
  }
}

/**
 * When to call again after a throttled answer: `Retry-After` in seconds or as an HTTP date
 * (RFC 9110 §10.2.3), else the caller's fallback. Never earlier than now.
 */
export function retryAtFrom(retryAfter: string | null | undefined, nowMs: number, fallbackMs: number): number {
  const value = retryAfter?.trim();
  if (value && /^\d+$/.test(value)) return nowMs + Number(value) * 1000;
  if (value) {
    const at = Date.parse(value);
    if (!Number.isNaN(at)) return Math.max(nowMs, at);
  }
  return nowMs + fallbackMs;
}

/** Sorted and without repeats: array attributes must not depend on the provider's ordering. */
export function sortedSet(values: Iterable<string>): string[] {
  return [...new Set(values)].sort();
}

function refKey(ref: EntityRef): string {
  return `${ref.kind}\u0000${ref.source_id}`;
}

function ref(entity: EntityRef): EntityRef {
  return { kind: entity.kind, source_id: entity.source_id };
}
