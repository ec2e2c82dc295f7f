/**
 * The access graph's part of a run's last step: the workspace's people follow the run's
 * Principal changes, and (after the connection's first run, which sets the baseline) its
 * relationship changes become access history. Both read the run's change list part by part,
 * so the work and the memory grow with what the run changed, not with the inventory: a run
 * over an unchanged provider reads an empty change list and writes nothing.
 *
 * Called before the finalize transaction, so a crash redoes it; everything it writes is keyed
 * so that doing it again changes nothing. The first attempt claims the run's time (`at`),
 * which the run then takes as its `finished_at`, so history and run agree on it.
 */
import type { Deps } from '../deps';
import { epochSeconds } from '../clock';
import { isConditionFailure } from '../store/client';
import { keys } from '../store/keys';
import type { ChangeEntry } from '../store/records';
import type { InventoryScope } from '../runs/inventory-writer';
import { collectRemovals, recordAccessChanges, type RunRemovals } from './access-history-upkeep';
import { applyPeopleChanges } from './people-upkeep';

const MARKER_TTL_SECONDS = 7 * 86_400;
/** Change parts read per query: each is up to ~300 KB. */
const PARTS_PER_READ = 2;

export interface RunGraphMarker {
  at: string;
  baseline: boolean;
  /** Milliseconds the last attempt spent on the graph, and the access changes it recorded. */
  ms?: number;
  access_changes?: number;
}

/** Applies the run's changes to the access graph; returns the time to record as the run's `finished_at`. */
export async function updateAccessGraph(deps: Deps, scope: InventoryScope, runId: string, now: string): Promise<string> {
  const marker = await claimMarker(deps, scope, runId, now);
  const started = Date.now();
  let part = 0;
  await eachChangePart(deps, scope, runId, async (entries) => applyPeopleChanges(deps, scope, runId, part++, entries));
  let history = 0;
  if (!marker.baseline) {
    const removals: RunRemovals = { principalsOfAccount: new Map(), resourcesOfEntitlement: new Map() };
    await eachChangePart(deps, scope, runId, (entries) => collectRemovals(removals, entries));
    await eachChangePart(deps, scope, runId, async (entries) => {
      history += await recordAccessChanges(deps, scope, runId, marker.at, entries, removals);
    });
  }
  const ms = Date.now() - started;
  // What the graph cost this run, kept with its marker (the bench reads it).
  await deps.table.update({ Key: keys.runAccessGraph(scope.tenantId, scope.workspaceId, scope.connectionId, runId), UpdateExpression: 'SET ms = :ms, access_changes = :n', ExpressionAttributeValues: { ':ms': ms, ':n': history } });
  deps.observability.logger.info('access graph updated', { run_id: runId, connection_id: scope.connectionId, parts: part, access_changes: history, baseline: marker.baseline, ms });
  return marker.at;
}

/** The run's marker: written once (the first attempt's time, and whether the connection had finished a run before). */
async function claimMarker(deps: Deps, scope: InventoryScope, runId: string, now: string): Promise<RunGraphMarker> {
  const { tenantId: t, workspaceId: w, connectionId: c } = scope;
  const key = keys.runAccessGraph(t, w, c, runId);
  const earlier = await deps.table.get<RunGraphMarker>(key);
  if (earlier) return earlier;
  // The inventory's meta item is written by the finalize of every run that read something.
  const baseline = (await deps.table.get(keys.inventoryMeta(t, w, c))) === undefined;
  const marker: RunGraphMarker = { at: now, baseline };
  try {
    await deps.table.put({ Item: { ...key, ...marker, ttl: epochSeconds(deps.clock) + MARKER_TTL_SECONDS }, ConditionExpression: 'attribute_not_exists(PK)' });
    return marker;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return (await deps.table.get<RunGraphMarker>(key))!;
  }
}

async function eachChangePart(deps: Deps, scope: InventoryScope, runId: string, use: (entries: ChangeEntry[]) => Promise<void> | void): Promise<void> {
  const prefix = keys.runChanges(scope.tenantId, scope.workspaceId, scope.connectionId, runId);
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await deps.table.queryRaw(prefix, { startKey, limit: PARTS_PER_READ });
    for (const item of page.items) await use((item.entries as ChangeEntry[] | undefined) ?? []);
    startKey = page.lastKey;
  } while (startKey);
}
