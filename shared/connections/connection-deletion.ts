/**
 * DELETE /v1/connections/{id}: the record goes at once (with its schedule: the due-run index is
 * on it), and the run worker purges its inventory, runs and tests in batches afterwards, since
 * an inventory can hold hundreds of thousands of items. Kept apart from connection-records so
 * that only this route's function carries the queue client.
 */
import type { Deps } from '../deps';
import { queueConnectionPurge } from '../runs/purge';
import { deleteConnection, type Actor } from './connection-records';

export async function deleteConnectionAndData(deps: Deps, actor: Actor, connectionId: string, ifMatch: string | undefined): Promise<void> {
  await deleteConnection(deps, actor, connectionId, ifMatch);
  await queueConnectionPurge(deps, actor, connectionId);
}
