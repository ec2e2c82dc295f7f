/**
 * A step's checkpoint items, in the connection's inventory partition:
 * - `V` parts: what the step saw (13-character digests per kind and track); the sweep reads
 *   them back to tell what the provider no longer has;
 * - `C` parts: the changes the step found, in order: the run's change list;
 * - `X` parts: the entities a sweep step removed (the relationship sweep drops what pointed at them);
 * - `L` parts: the relationships a reading step held back for want of an end it had seen
 *   (inventory-writer.ts); the sweep's linking stage writes or refuses them (edge-linking.ts);
 * - the `H` header, written last, holding the progress the step reached: once it exists the step
 *   is done, and a redelivered message only commits it.
 * Parts stay under DynamoDB's 400 KB item size. The V, X, L and H items expire (TTL) a week after
 * the run; the C parts are the run's history and stay.
 */
import { epochSeconds } from '../clock';
import type { Deps } from '../deps';
import { keys } from '../store/keys';
import type { ChangeEntry, RunProgress, RunRecord } from '../store/records';
import type { StoredItem } from '../store/table-client';
import type { HeldEdge, InventoryScope } from './inventory-writer';
import { SEEN_KEY_LENGTH } from './inventory-ids';
import { DigestSet } from './digest-set';

/** Characters per part: leaves room under 400 KB for names, keys and UTF-8. */
const PART_BUDGET = 300_000;
const CHECKPOINT_TTL_SECONDS = 7 * 86_400;

export interface StepHeader {
  next: RunProgress;
  errors: RunRecord['errors'];
  /** Seconds the next step waits (a provider's rate limit). */
  delay_seconds: number;
}

type Scope = InventoryScope;
const seenAttribute = (kind: string) => `seen_${kind}`;

/** Splits per-kind, per-track digest lists into parts of at most PART_BUDGET characters. */
function packSeen(seen: Map<string, Map<string, string[]>>): Record<string, Record<string, string>>[] {
  const parts: Record<string, Record<string, string>>[] = [];
  let current: Record<string, Record<string, string>> = {};
  let size = 0;
  const perPart = Math.floor(PART_BUDGET / SEEN_KEY_LENGTH);
  for (const [kind, byTrack] of seen) {
    for (const [track, list] of byTrack) {
      for (let start = 0; start < list.length; ) {
        const room = perPart - size;
        if (room <= 0) {
          parts.push(current);
          current = {};
          size = 0;
          continue;
        }
        const slice = list.slice(start, start + room);
        const attribute = (current[seenAttribute(kind)] ??= {});
        attribute[track] = (attribute[track] ?? '') + slice.join('');
        size += slice.length;
        start += slice.length;
      }
    }
  }
  if (Object.keys(current).length > 0) parts.push(current);
  return parts;
}

function packEntries<T>(entries: readonly T[]): T[][] {
  const parts: T[][] = [];
  let current: T[] = [];
  let size = 0;
  for (const entry of entries) {
    const length = JSON.stringify(entry).length + 1;
    if (size + length > PART_BUDGET && current.length > 0) {
      parts.push(current);
      current = [];
      size = 0;
    }
    current.push(entry);
    size += length;
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

/**
 * Entries a previous attempt of this step recorded, merged with this attempt's, each once (two
 * sightings of one new entity in parallel tracks of a step both report it).
 */
async function mergedWithEarlierAttempt<T>(deps: Deps, prefix: { PK: string; SKPrefix: string }, entries: readonly T[]): Promise<T[]> {
  const earlier: T[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await deps.table.queryRaw(prefix, { startKey });
    for (const item of page.items) earlier.push(...((item.entries as T[] | undefined) ?? []));
    startKey = page.lastKey;
  } while (startKey);
  const seen = new Set<string>();
  return [...earlier, ...entries].filter((entry) => {
    const key = JSON.stringify(entry);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Writes a step's parts (seen digests, changes, removed entities), merging with what an earlier
 * attempt of the same step wrote. Returns the changes as recorded (for the run's counters).
 */
export async function writeStepParts(
  deps: Deps,
  scope: Scope,
  runId: string,
  step: number,
  data: { seen: Map<string, Map<string, string[]>>; changes: readonly ChangeEntry[]; removed: readonly string[]; held?: readonly HeldEdge[] },
): Promise<ChangeEntry[]> {
  const { tenantId: t, workspaceId: w, connectionId: c } = scope;
  const ttl = epochSeconds(deps.clock) + CHECKPOINT_TTL_SECONDS;
  const [changes, removed, held] = await Promise.all([
    mergedWithEarlierAttempt(deps, keys.runStepChangeParts(t, w, c, runId, step), data.changes),
    mergedWithEarlierAttempt(deps, keys.runStepRemovedParts(t, w, c, runId, step), data.removed),
    data.held && data.held.length > 0 ? mergedWithEarlierAttempt(deps, keys.runStepHeldEdgeParts(t, w, c, runId, step), data.held) : Promise.resolve([]),
  ]);
  const items: StoredItem[] = [
    ...packSeen(data.seen).map((attributes, part) => ({ ...keys.runStepSeen(t, w, c, runId, step, part), ...attributes, ttl })),
    ...packEntries(changes).map((entries, part) => ({ ...keys.runStepChanges(t, w, c, runId, step, part), entries })),
    ...packEntries(removed).map((entries, part) => ({ ...keys.runStepRemoved(t, w, c, runId, step, part), entries, ttl })),
    ...packEntries(held).map((entries, part) => ({ ...keys.runStepHeldEdges(t, w, c, runId, step, part), entries, ttl })),
  ];
  if (items.length > 0) await deps.table.batchWrite(items);
  return changes;
}

export async function writeStepHeader(deps: Deps, scope: Scope, runId: string, step: number, header: StepHeader): Promise<void> {
  const { tenantId: t, workspaceId: w, connectionId: c } = scope;
  await deps.table.put({ Item: { ...keys.runStepHeader(t, w, c, runId, step), ...header, ttl: epochSeconds(deps.clock) + CHECKPOINT_TTL_SECONDS } });
}

export async function readStepHeader(deps: Deps, scope: Scope, runId: string, step: number): Promise<StepHeader | undefined> {
  const { tenantId: t, workspaceId: w, connectionId: c } = scope;
  return deps.table.get<StepHeader>(keys.runStepHeader(t, w, c, runId, step));
}

/** Every digest the run saw of one kind (all tracks): the sweep's reference. */
export async function loadSeen(deps: Deps, scope: Scope, runId: string, kind: string): Promise<DigestSet> {
  const seen = new DigestSet(SEEN_KEY_LENGTH);
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await deps.table.queryRaw(keys.runSeen(scope.tenantId, scope.workspaceId, scope.connectionId, runId), { startKey, projection: [seenAttribute(kind)] });
    for (const item of page.items) {
      for (const concatenated of Object.values((item[seenAttribute(kind)] as Record<string, string> | undefined) ?? {})) {
        for (let i = 0; i < concatenated.length; i += SEEN_KEY_LENGTH) seen.add(concatenated.slice(i, i + SEEN_KEY_LENGTH));
      }
    }
    startKey = page.lastKey;
  } while (startKey);
  return seen;
}

/** How many distinct entities of each track the run saw (all entity kinds): the mass-removal guard's figure. */
export async function countSeenEntitiesByTrack(deps: Deps, scope: Scope, runId: string, kinds: readonly string[]): Promise<Record<string, number>> {
  const byTrack = new Map<string, Set<string>>();
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await deps.table.queryRaw(keys.runSeen(scope.tenantId, scope.workspaceId, scope.connectionId, runId), { startKey, projection: kinds.map(seenAttribute) });
    for (const item of page.items) {
      for (const kind of kinds) {
        for (const [track, concatenated] of Object.entries((item[seenAttribute(kind)] as Record<string, string> | undefined) ?? {})) {
          let seen = byTrack.get(track);
          if (!seen) byTrack.set(track, (seen = new Set()));
          // Entity ids differ between kinds, and so do their digests: one set per track holds all kinds.
          for (let i = 0; i < concatenated.length; i += SEEN_KEY_LENGTH) seen.add(concatenated.slice(i, i + SEEN_KEY_LENGTH));
        }
      }
    }
    startKey = page.lastKey;
  } while (startKey);
  return Object.fromEntries([...byTrack].map(([track, seen]) => [track, seen.size]));
}

/**
 * One part of the relationships the run's reading steps held back, from `startKey` on: the
 * linking stage pages through them a part at a time, never holding them all.
 */
export async function readHeldEdgePart(deps: Deps, scope: Scope, runId: string, startKey: Record<string, unknown> | undefined): Promise<{ edges: HeldEdge[]; lastKey?: Record<string, unknown> }> {
  const page = await deps.table.queryRaw(keys.runHeldEdges(scope.tenantId, scope.workspaceId, scope.connectionId, runId), { startKey, limit: 1 });
  return { edges: page.items.flatMap((item) => (item.entries as HeldEdge[] | undefined) ?? []), ...(page.lastKey ? { lastKey: page.lastKey } : {}) };
}

/** Entity ids the run's sweep removed so far. */
export async function loadRemoved(deps: Deps, scope: Scope, runId: string): Promise<Set<string>> {
  const removed = new Set<string>();
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await deps.table.queryRaw(keys.runRemoved(scope.tenantId, scope.workspaceId, scope.connectionId, runId), { startKey });
    for (const item of page.items) for (const id of (item.entries as string[] | undefined) ?? []) removed.add(id);
    startKey = page.lastKey;
  } while (startKey);
  return removed;
}
