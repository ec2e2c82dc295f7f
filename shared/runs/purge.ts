/**
 * What deleting a connection leaves to clean: its Principals in the workspace's people, its
 * inventory and run checkpoints (partitions of their own), its run records and its test records. Done by the run worker, in batches, because
 * an inventory can hold hundreds of thousands of items; a second pass, after any step that was
 * running at the deletion must have ended, removes what such a step wrote late.
 */
import type { Deps } from '../deps';
import { removeConnectionFromPeople } from '../access/people-upkeep';
import { keys } from '../store/keys';
import type { KeyPrefix } from '../store/keys';
import type { RunMessage } from './run-queue';
import { runQueueOf } from './run-queue';

export type PurgeMessage = Extract<RunMessage, { type: 'purge_connection' }>;

const PASSES = 2;

export async function queueConnectionPurge(deps: Deps, scope: { tenantId: string; workspaceId: string }, connectionId: string): Promise<void> {
  try {
    await runQueueOf(deps).send({ type: 'purge_connection', tenant_id: scope.tenantId, workspace_id: scope.workspaceId, connection_id: connectionId, pass: 0 });
  } catch (error) {
    deps.observability.logger.error('purge of a deleted connection could not be queued', { connection_id: connectionId, error_name: (error as Error).name });
  }
}

export async function purgeConnectionData(deps: Deps, message: PurgeMessage, options: { deadlineMs: number }): Promise<void> {
  const { tenant_id: t, workspace_id: w, connection_id: c } = message;
  // People first: a pass cut short by its deadline starts again here, and finds only the people not yet rewritten.
  if ((await removeConnectionFromPeople(deps, { tenantId: t, workspaceId: w }, c, options.deadlineMs)) === 'unfinished') {
    await runQueueOf(deps).send(message);
    return;
  }
  const prefixes: KeyPrefix[] = [...keys.inventoryPartitions(t, w, c), keys.connectionRuns(t, w, c), keys.connectionTests(t, w, c)];
  for (const prefix of prefixes) {
    for (;;) {
      if (Date.now() > options.deadlineMs) {
        await runQueueOf(deps).send(message); // not done yet: the same pass goes on
        return;
      }
      const page = await deps.table.queryRaw(prefix, { limit: 500, projection: ['PK'] });
      if (page.items.length === 0) break;
      await deps.table.batchWrite([], page.items.map((item) => ({ PK: item.PK as string, SK: item.SK as string })));
    }
  }
  if (message.pass + 1 < PASSES) {
    // A step that was reading when the connection went can still write until its budget ends.
    const delaySeconds = Math.min(900, deps.config.runs.stepSeconds + 5);
    await runQueueOf(deps).send({ ...message, pass: message.pass + 1 }, { delaySeconds });
  }
}
