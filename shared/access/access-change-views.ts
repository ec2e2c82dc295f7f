/**
 * Access history (permission `connections:read`), newest first: the workspace's timeline, or
 * one person's (`person_id`), between `since` (inclusive) and `until` (exclusive), optionally
 * of one connection. Items expire 401 days after their run.
 */
import type { Deps } from '../deps';
import type { WorkspaceScope } from '../identity/principal';
import { keys } from '../store/keys';
import type { Page, PageRequest } from '../store/table-client';
import { PREFIX_END, withoutKeys } from '../store/table-client';
import type { AccessChangeRecord } from './access-history-upkeep';

export async function listAccessChanges(
  deps: Deps,
  scope: WorkspaceScope,
  query: PageRequest & { since?: string | undefined; until?: string | undefined; person_id?: string | undefined; connection_id?: string | undefined },
): Promise<Page<AccessChangeRecord>> {
  const { tenantId: t, workspaceId: w } = scope;
  const partition = query.person_id ? keys.personAccessChanges(t, w, query.person_id).PK : keys.accessChanges(t, w).PK;
  let startKey: Record<string, unknown> | undefined;
  // The cursor is this list's own position, sealed and bound to the caller and filters (list-endpoint.ts).
  if (query.cursor) startKey = { PK: partition, SK: query.cursor };
  const items: AccessChangeRecord[] = [];
  for (;;) {
    const page = await deps.table.queryRange({
      partition,
      from: query.since ?? '0',
      // `until` is exclusive: every key at that very time sorts after the bare timestamp.
      to: query.until ?? PREFIX_END,
      newestFirst: true,
      limit: query.limit - items.length,
      startKey,
      ...(query.connection_id ? { filter: { expression: 'connection_id = :connection', values: { ':connection': query.connection_id } } } : {}),
    });
    for (const item of page.items) {
      items.push(withoutKeys<AccessChangeRecord & { ttl?: number }>(item));
    }
    startKey = page.lastKey;
    if (!startKey || items.length >= query.limit) break;
  }
  return { items: items.map(({ at, run_id, connection_id, change, person, target, via }) => ({ at, run_id, connection_id, change, person, target, via })), nextCursor: startKey ? (startKey.SK as string) : null };
}
