/**
 * The sweep's linking stage: the relationships the reading steps held back (an end not seen by
 * the step that listed them) are checked against every entity the run saw. One whose ends were
 * both seen is written and marked seen, as if read with them; one with an end the run never saw
 * is refused: it is not written, an existing copy is swept like anything the run did not see,
 * and the run is `partial` with a `provider` error naming it (the first few by name, then a
 * count). Held relationships are read a checkpoint part at a time, so a large backlog never sits
 * in memory at once.
 */
import type { Deps } from '../deps';
import type { RemediationItem } from '../connectors/connector';
import type { ObservedRelationship } from '../connectors/discovery';
import type { RunProgress, RunRecord } from '../store/records';
import { entityIdOf, seenKeyOfEntity } from './inventory-ids';
import { StepObservations, writeLinkedRelationships, type HeldEdge, type InventoryScope } from './inventory-writer';
import { readHeldEdgePart } from './run-checkpoint';

/** Refused relationships named one by one in the run's errors; the rest are counted. */
export const DANGLING_NAMED = 10;
/** Relationships written per batch (one batch read, one batch write). */
const LINK_BATCH = 100;

export interface LinkingOutcome {
  /** What the stage wrote and saw this step: committed with the step's checkpoint. */
  observations: StepObservations;
  /** Whether any held relationship was handled: its seen marks must be committed before the relationship sweep. */
  handled: boolean;
  /** Whether every held relationship is handled. */
  done: boolean;
}

/**
 * Links or refuses held relationships until they are all handled, `deadlineMs` passes or the
 * step holds `runs.maxStepObservations`; `progress.linking` keeps the place. `seenEntities` answers the run's seen digests of one
 * entity kind.
 */
export async function linkHeldEdges(
  deps: Deps,
  scope: InventoryScope,
  run: RunRecord,
  progress: RunProgress,
  errors: RemediationItem[],
  seenEntities: (kind: string) => Promise<{ has(digest: string): boolean }>,
  deadlineMs: number,
): Promise<LinkingOutcome> {
  const observations = new StepObservations(scope, run.run_id, run.progress.step, deps.clock.now().toISOString());
  let handled = false;
  // Bounded as a reading step is: a first run links most of its relationships here (300,000
  // memberships for 100,000 users), and the changes and digests a step holds are its memory.
  while (progress.linking !== 'done' && Date.now() < deadlineMs && observations.seenCount < deps.config.runs.maxStepObservations) {
    const part = await readHeldEdgePart(deps, scope, run.run_id, progress.linking);
    handled ||= part.edges.length > 0;
    const linked = new Map<string, ObservedRelationship[]>();
    for (const edge of part.edges) {
      const [kind, fromKind, fromSourceId, toKind, toSourceId, track] = edge;
      const [fromSeen, toSeen] = await Promise.all([
        seenEntities(fromKind).then((seen) => seen.has(seenKeyOfEntity(entityIdOf(scope.connectionId, fromKind, fromSourceId)))),
        seenEntities(toKind).then((seen) => seen.has(seenKeyOfEntity(entityIdOf(scope.connectionId, toKind, toSourceId)))),
      ]);
      if (fromSeen && toSeen) {
        const list = linked.get(track) ?? [];
        list.push({ kind, from: { kind: fromKind, source_id: fromSourceId }, to: { kind: toKind, source_id: toSourceId }, track });
        linked.set(track, list);
        continue;
      }
      // Held by two steps, refused once.
      if (!observations.claim(`dangling:${JSON.stringify(edge)}`)) continue;
      progress.dangling = (progress.dangling ?? 0) + 1;
      if (progress.dangling <= DANGLING_NAMED) errors.push(danglingError(scope.connectionId, edge, { from: fromSeen, to: toSeen }));
    }
    for (const [track, list] of linked) {
      for (let start = 0; start < list.length; start += LINK_BATCH) await writeLinkedRelationships(deps, observations, list.slice(start, start + LINK_BATCH), track);
    }
    progress.linking = part.lastKey ?? 'done';
  }
  if (progress.linking === 'done' && (progress.dangling ?? 0) > DANGLING_NAMED) errors.push(danglingSummary(progress.dangling!));
  progress.stats.items_written += observations.itemsWritten;
  return { observations, handled, done: progress.linking === 'done' };
}

function danglingError(connectionId: string, [kind, fromKind, fromSourceId, toKind, toSourceId]: HeldEdge, seen: { from: boolean; to: boolean }): RemediationItem {
  const missing = [seen.from ? undefined : `${fromKind} ${fromSourceId}`, seen.to ? undefined : `${toKind} ${toSourceId}`].filter((end) => end !== undefined);
  return {
    category: 'provider',
    message:
      `The provider listed a ${kind} relationship from ${fromKind} ${fromSourceId} to ${toKind} ${toSourceId}, ` +
      `but never listed ${missing.join(' nor ')} in this run; the relationship was not recorded.`,
    action:
      `Check in the provider that ${missing.join(' and ')} exists and that the connection's credential may list it; ` +
      `the next run of connection ${connectionId} records the relationship once both ends are listed.`,
  };
}

function danglingSummary(count: number): RemediationItem {
  return {
    category: 'provider',
    message: `${count} relationships in all named an entity the provider never listed in this run and were not recorded; the first ${DANGLING_NAMED} are listed above.`,
    action: 'Check the listed entities in the provider and the connection credential\'s rights to list them.',
  };
}
