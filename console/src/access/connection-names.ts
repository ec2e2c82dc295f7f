/**
 * The workspace's connections by id, so the access pages can name the connection of an account
 * or a path (the access graph's answers carry `connection_id` only). Read once per page.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client';
import { send } from '../api/send';

export type ConnectionNames = ReadonlyMap<string, string>;

export function useConnections(): Schemas['Connection'][] {
  const [connections, setConnections] = useState<Schemas['Connection'][]>([]);
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      const all: Schemas['Connection'][] = [];
      let cursor: string | null = null;
      do {
        const page = await readPage(cursor);
        if (!page) break;
        all.push(...page.connections);
        cursor = page.next_cursor;
      } while (cursor);
      if (!cancelled) setConnections(all.sort((a, b) => a.name.localeCompare(b.name)));
    })();
    return () => void (cancelled = true);
  }, []);
  return connections;
}

async function readPage(cursor: string | null): Promise<{ connections: Schemas['Connection'][]; next_cursor: string | null } | undefined> {
  const outcome = await send(() => api.GET('/v1/connections', { params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } } }));
  return outcome.ok ? outcome.data : undefined;
}

export function namesOf(connections: Schemas['Connection'][]): ConnectionNames {
  return new Map(connections.map((c) => [c.connection_id, c.name]));
}

/** A connection's name, or its id while the names load (or when it was deleted since). */
export const connectionName = (names: ConnectionNames, id: string) => names.get(id) ?? id;
