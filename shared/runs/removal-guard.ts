/**
 * The mass-removal guard: a track whose count of entities falls by more than half, and by at
 * least MIN_DROP, since the last run that read it completely is not swept. What it read is
 * written, nothing of it is removed, and the run is `partial` with an error of category
 * `safety` naming the track and both counts. A mis-scoped credential, a provider incident or a
 * filter typo looks like most of an org leaving; a run started with `confirm_removals` accepts
 * the drop. Counts are kept per track in the inventory's meta item (`count#<track>`), written
 * when a run sweeps the track.
 */
import type { Deps } from '../deps';
import type { RemediationItem } from '../connectors/connector';
import { entityKinds } from '../connectors/discovery';
import { keys } from '../store/keys';
import type { RunProgress, RunRecord } from '../store/records';
import type { InventoryScope } from './inventory-writer';
import { countSeenEntitiesByTrack } from './run-checkpoint';

/** Prefix of the inventory-meta attribute holding a track's entity count at its last sweep. */
export const TRACK_COUNT_PREFIX = 'count#';
/** A drop smaller than this is ordinary churn, however large a share of a small track it is. */
export const MIN_DROP = 50;

export function isMassRemoval(before: number, now: number): boolean {
  const drop = before - now;
  return drop >= MIN_DROP && drop * 2 > before;
}

export function massRemovalError(connectionId: string, track: string, before: number, now: number): RemediationItem {
  return {
    category: 'safety',
    message: `The ${track} track found ${now} entities where the last complete read found ${before}; its ${before - now} removals were not applied.`,
    action:
      `If ${before - now} entities really left the ${track} track, start a run with {"confirm_removals": true} (POST /v1/connections/${connectionId}/runs, or "Run again and accept the removals" in the console) to apply them; ` +
      'otherwise check the credential\'s rights and the connection\'s scope and filters.',
  };
}

/**
 * Counts what each track saw, once, when the sweep begins, and holds the tracks whose drop is
 * too large (unless the run confirms removals). Records both in `progress`; answers the errors.
 */
export async function applyRemovalGuard(deps: Deps, scope: InventoryScope, run: RunRecord, progress: RunProgress): Promise<RemediationItem[]> {
  const counts = await countSeenEntitiesByTrack(deps, scope, run.run_id, entityKinds);
  const readTracks = Object.entries(progress.tracks).filter(([, track]) => track.status === 'done').map(([name]) => name);
  progress.track_entities = Object.fromEntries(readTracks.map((name) => [name, counts[name] ?? 0]));
  progress.held = {};
  if (run.confirm_removals) return [];
  const meta = await deps.table.get<Record<string, unknown>>(keys.inventoryMeta(scope.tenantId, scope.workspaceId, scope.connectionId));
  const errors: RemediationItem[] = [];
  for (const name of readTracks) {
    const before = meta?.[`${TRACK_COUNT_PREFIX}${name}`];
    const now = progress.track_entities[name]!;
    if (typeof before !== 'number' || !isMassRemoval(before, now)) continue;
    progress.held[name] = { before, now };
    errors.push(massRemovalError(scope.connectionId, name, before, now));
  }
  return errors;
}

/** The inventory-meta values a finished run leaves for the tracks it swept. */
export function sweptTrackCounts(progress: RunProgress): Record<string, number> {
  const held = progress.held ?? {};
  return Object.fromEntries(Object.entries(progress.track_entities ?? {}).filter(([name]) => held[name] === undefined && progress.tracks[name]?.status === 'done'));
}
