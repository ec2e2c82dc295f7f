/** The sweep: what the provider no longer has leaves the inventory, once every track is read. */
import type { Deps } from '../deps';
import { entityKinds, relationshipKinds } from '../connectors/discovery';
import { INVENTORY_SHARDS, keys } from '../store/keys';
import type { ChangeEntry, RunProgress, RunRecord } from '../store/records';
import { runWithConcurrency } from '../bounded-concurrency';
import { epochSeconds } from '../clock';
import { seenKeyOfEntity, seenKeyOfRelationship } from './inventory-ids';
import type { InventoryScope } from './inventory-writer';
import { loadRemoved, loadSeen, writeStepParts } from './run-checkpoint';
import { applyRemovalGuard } from './removal-guard';
import { linkHeldEdges } from './edge-linking';
import type { StepOptions, StepResult } from './run-step';

/**
 * The sweep's stages: every entity kind, then every relationship kind (which also drops what
 * pointed at an entity the first stage removed).
 */
const SWEEP_STAGES: readonly { relationships: boolean; kinds: readonly string[] }[] = [
  { relationships: false, kinds: entityKinds },
  { relationships: true, kinds: relationshipKinds },
];
/** Ranges of stored items a sweep step reads at once: a query's latency, not the table, limits one reader. */
const SWEEP_LANES = 4;
const SWEEP_PAGE = 500;
/** How long a removed entity's ref stays to name what pointed at it (access history is kept 400 days too). */
const REMOVED_REF_TTL_SECONDS = 400 * 24 * 3600;

/**
 * Removes what the provider no longer has: stored items whose track was read to the end (or is
 * no longer in scope) and that this run did not see; and relationships whose end this run
 * removed. Tracks that were refused keep their items, and so do those the mass-removal guard
 * holds (removal-guard.ts). First the relationships the reading steps held back are linked or
 * refused (edge-linking.ts), in steps of their own when there are any, so their seen marks are
 * committed before the relationships are swept. Each kind is read shard by shard (the
 * inventory's partitions), several at a time, each with its own cursor in the progress.
 */
export async function sweepStep(deps: Deps, scope: InventoryScope, run: RunRecord, progress: RunProgress, options: StepOptions): Promise<StepResult> {
  const deadlineMs = Math.min(options.deadlineMs, Date.now() + deps.config.runs.stepSeconds * 1000);
  const changes: ChangeEntry[] = [];
  const removed: string[] = [];
  const errors = [...run.errors];
  if (progress.sweep.stage === 0 && progress.track_entities === undefined) errors.push(...(await applyRemovalGuard(deps, scope, run, progress)));
  const held = progress.held ?? {};
  const sweepable = (track: unknown) =>
    typeof track === 'string' && held[track] === undefined && (progress.tracks[track] === undefined || progress.tracks[track].status === 'done');
  const seenByKind = new Map<string, Promise<Set<string>>>();
  const seenOf = (kind: string, relationship: boolean) => {
    let seen = seenByKind.get(kind);
    if (!seen) {
      seen = loadSeen(deps, scope, run.run_id, kind).then((set) => {
        if (set.size > 0) (relationship ? progress.counts.relationships : progress.counts.entities)[kind] = set.size;
        return set;
      });
      seenByKind.set(kind, seen);
    }
    return seen;
  };
  if (progress.linking !== 'done') {
    const linking = await linkHeldEdges(deps, scope, run, progress, errors, (kind) => seenOf(kind, false), deadlineMs);
    if (linking.handled || !linking.done) {
      return { next: { ...progress, phase: 'sweep' }, errors, delaySeconds: 0, changes: linking.observations.changes, removed: [], observations: linking.observations };
    }
  }
  // Changes are recorded before the items go, one recording at a time: the parts written last
  // hold every change found so far, so a crash in between is redone from the cursors, merged.
  let recorded: Promise<void> = Promise.resolve();
  const recordThenDelete = (deletes: { PK: string; SK: string }[], refsLeft: Record<string, unknown>[]): Promise<void> => {
    const done = recorded.then(async () => {
      await writeStepParts(deps, scope, run.run_id, run.progress.step, { seen: new Map(), changes, removed });
      await deps.table.batchWrite(refsLeft, deletes);
      progress.stats.items_deleted += deletes.length;
    });
    recorded = done.catch(() => undefined);
    return done;
  };

  while (progress.sweep.stage < SWEEP_STAGES.length && Date.now() < deadlineMs) {
    const stage = SWEEP_STAGES[progress.sweep.stage]!;
    const relationship = stage.relationships;
    const removedEntities = relationship ? new Set([...(await loadRemoved(deps, scope, run.run_id)), ...removed]) : new Set<string>();
    const ranges = stage.kinds.flatMap((kind) => INVENTORY_SHARDS.map((shard) => ({ kind, shard, name: `${kind} ${shard}` })));
    const cursors = progress.sweep.ranges;
    await runWithConcurrency(ranges.filter((range) => cursors[range.name] !== 'done'), SWEEP_LANES, async ({ kind, shard, name }) => {
      if (Date.now() >= deadlineMs) return;
      const seen = await seenOf(kind, relationship);
      const prefix = relationship
        ? keys.inventoryRelationships(scope.tenantId, scope.workspaceId, scope.connectionId, shard, kind)
        : keys.inventoryEntities(scope.tenantId, scope.workspaceId, scope.connectionId, shard, kind);
      while (Date.now() < deadlineMs) {
        const cursor = cursors[name];
        const page = await deps.table.queryRaw(prefix, {
          startKey: cursor === undefined || cursor === 'done' ? undefined : cursor,
          limit: SWEEP_PAGE,
          projection: relationship ? ['kind', 'from_entity_id', 'to_entity_id', 'from_source_id', 'to_source_id', 'track'] : ['entity_id', 'source_id', 'display_name', 'track'],
        });
        const deletes: { PK: string; SK: string }[] = [];
        const refsLeft: Record<string, unknown>[] = [];
        for (const item of page.items) {
          const sk = item.SK as string;
          if (relationship) {
            const from = item.from_entity_id as string;
            const to = item.to_entity_id as string;
            const gone = (sweepable(item.track) && !seen.has(seenKeyOfRelationship(kind, from, to))) || removedEntities.has(from) || removedEntities.has(to);
            if (!gone) continue;
            changes.push(['removed', kind, from, item.from_source_id as string, to, item.to_source_id as string]);
            deletes.push({ PK: prefix.PK, SK: sk });
          } else {
            const entityId = item.entity_id as string;
            if (!sweepable(item.track) || seen.has(seenKeyOfEntity(entityId))) continue;
            changes.push(['removed', kind, entityId, item.source_id as string]);
            removed.push(entityId);
            const { tenantId: t, workspaceId: w, connectionId: c } = scope;
            deletes.push({ PK: prefix.PK, SK: sk }, keys.inventoryEntitySourceKey(t, w, c, kind, entityId));
            // Its ref stays behind, so the changes and relationships that point at it still name it (entity-refs.ts).
            refsLeft.push({
              ...keys.inventoryRemovedEntity(t, w, c, kind, entityId),
              entity_id: entityId, kind, source_id: item.source_id, display_name: item.display_name ?? item.source_id,
              removed_at: deps.clock.now().toISOString(), ttl: epochSeconds(deps.clock) + REMOVED_REF_TTL_SECONDS,
            });
          }
        }
        if (deletes.length > 0) await recordThenDelete(deletes, refsLeft);
        cursors[name] = page.lastKey ?? 'done';
        if (!page.lastKey) break;
      }
      // A kind's seen digests (300,000 strings for 100,000 users in 3 groups) go once its last shard is swept, not with the step.
      if (INVENTORY_SHARDS.every((s) => cursors[`${kind} ${s}`] === 'done')) seenByKind.delete(kind);
    });
    if (ranges.some((range) => cursors[range.name] !== 'done')) break;
    progress.sweep = { stage: progress.sweep.stage + 1, ranges: {} };
  }
  const phase = progress.sweep.stage >= SWEEP_STAGES.length ? 'done' : 'sweep';
  return { next: { ...progress, phase }, errors, delaySeconds: 0, changes, removed };
}
