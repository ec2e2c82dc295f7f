/**
 * Pointers followed lately, kept across warm invocations of a sign-in function: a name (a
 * slug, a domain, a user's email or username within a tenant) and the id it led to. Only an
 * index: whoever follows one confirms it by what it reads (tenant-routing.ts,
 * login-accounts.ts), so a pointer that has moved on since costs the read it tried to save and
 * nothing else.
 */
import type { DepsPart } from '../deps';

/** How long a followed pointer is kept, and how many at most (the oldest go first). */
const POINTER_MEMORY_SECONDS = 300;
const POINTER_MEMORY_ENTRIES = 1000;

export class RecentPointers {
  private readonly entries = new Map<string, { id: string; until: number }>();

  get(name: string, now: number): string | undefined {
    const entry = this.entries.get(name);
    if (entry && entry.until > now) return entry.id;
    this.entries.delete(name);
    return undefined;
  }

  set(name: string, id: string, now: number): void {
    this.entries.delete(name);
    if (this.entries.size >= POINTER_MEMORY_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(name, { id, until: now + POINTER_MEMORY_SECONDS * 1000 });
  }

  forget(name: string): void {
    this.entries.delete(name);
  }
}

export const recentPointers: DepsPart<RecentPointers> = { name: 'sign-in pointers', create: () => new RecentPointers() };
