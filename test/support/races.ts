/**
 * A race between two writers, replayed deterministically: the other writer's change runs just
 * before the request's own transaction is sent, so the request meets the state a parallel
 * writer would leave, and the test checks that the loser gets its 409/412/401 and the winner's
 * write stands.
 */
import { vi } from 'vitest';
import type { Deps } from '../../shared/deps';
import type { TransactItem } from '../../shared/store/table-client';

export function beforeNextTransaction(deps: Deps, otherWriter: () => Promise<unknown>): void {
  const table = deps.table;
  const send = table.transact.bind(table);
  vi.spyOn(table, 'transact').mockImplementationOnce(async (items: TransactItem[]) => {
    await otherWriter();
    return send(items);
  });
}
