/**
 * The workspace's people lease: whoever rewrites people (a run's last step, part by part; a
 * deleted connection's purge, page by page) holds it while it reads and writes them. Under it a
 * read-modify-write needs no condition, so a part's people go out in plain batch writes
 * (BatchWriteItem takes no conditions) and two connections finishing runs at once still never
 * lose each other's member: the second waits for the first's part (a few seconds at most).
 *
 * The lease expires on its own (a holder that crashed blocks nobody for long); a holder works
 * on one bounded batch of people, far shorter than the lease.
 */
import { randomUUID } from 'node:crypto';
import type { Deps } from '../deps';
import { epochSeconds } from '../clock';
import type { WorkspaceScope } from '../identity/principal';
import { isConditionFailure } from '../store/client';
import { keys } from '../store/keys';

const LEASE_SECONDS = 120;
/** A waiter gives up (its step is retried by the queue) after longer than a lease can be held. */
const WAIT_MS = (LEASE_SECONDS + 30) * 1000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function withPeopleLease<T>(deps: Deps, scope: WorkspaceScope, work: () => Promise<T>): Promise<T> {
  const key = keys.peopleLease(scope.tenantId, scope.workspaceId);
  const holder = randomUUID();
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    const now = epochSeconds(deps.clock);
    try {
      await deps.table.put({
        Item: { ...key, holder, expires_at: now + LEASE_SECONDS, ttl: now + LEASE_SECONDS + 3600 },
        ConditionExpression: 'attribute_not_exists(PK) OR expires_at < :now',
        ExpressionAttributeValues: { ':now': now },
      });
      break;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      if (Date.now() - started > WAIT_MS) throw new Error('the workspace\'s people stayed leased by another writer');
      await pause(Math.min(1000, 20 * 2 ** attempt) * (0.5 + Math.random() / 2));
    }
  }
  try {
    return await work();
  } finally {
    await deps.table.delete({ Key: key, ConditionExpression: 'holder = :holder', ExpressionAttributeValues: { ':holder': holder } }).catch((error: unknown) => {
      // Expired and taken by another writer meanwhile: theirs now.
      if (!isConditionFailure(error)) throw error;
    });
  }
}
