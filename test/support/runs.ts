/**
 * Discovery runs as the API tests drive them: start one over HTTP, let the local host's queue
 * carry it to the end, read the run and whole lists back (following every cursor).
 */
import { expect } from 'vitest';
import type { HttpClient } from './http-client';
import type { TestHost } from './test-host';

export interface RunBody {
  run_id: string;
  connection_id: string;
  status: string;
  trigger: string;
  finished_at: string | null;
  counts: { entities: Record<string, number>; relationships: Record<string, number> };
  changes: Record<string, number>;
  errors: { category: string; message: string; action: string }[];
  stats: { steps: number; provider_requests: number; throttled_ms: number; items_written: number; items_deleted: number; dangling_relationships: number };
}

export interface EntityBody {
  entity_id: string;
  kind: string;
  source_id: string;
  display_name: string;
  attributes: Record<string, unknown>;
  first_seen_at: string;
  last_seen_at: string;
}

export interface RelationshipBody {
  kind: string;
  from_entity_id: string;
  to_entity_id: string;
  from_source_id: string;
  to_source_id: string;
}

export interface ChangeBody {
  change: string;
  kind: string;
  entity_id: string;
  source_id: string;
  to_entity_id?: string;
  to_source_id?: string;
  changed_attributes?: { attribute: string; before: string | null; after: string | null }[];
}

/** Starts a run (202 with Location) and waits until the queue has carried it to its end. */
export async function runToEnd(http: HttpClient, host: TestHost, token: string, connectionId: string): Promise<RunBody> {
  const started = await http.request('POST', `/v1/connections/${connectionId}/runs`, { token });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  const run = started.body as RunBody;
  expect(started.headers.location).toBe(`${host.url}/v1/connections/${connectionId}/runs/${run.run_id}`);
  await host.runQueue.idle();
  return readRun(http, token, connectionId, run.run_id);
}

export async function readRun(http: HttpClient, token: string, connectionId: string, runId: string): Promise<RunBody> {
  const res = await http.request('GET', `/v1/connections/${connectionId}/runs/${runId}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as RunBody;
}

/** Every item of a list, following `next_cursor` with pages of `limit`. */
export async function listAll<T>(http: HttpClient, token: string, path: string, field: string, limit = 100): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const res = await http.request('GET', `${path}${separator}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const body = res.body as Record<string, unknown>;
    items.push(...(body[field] as T[]));
    cursor = body.next_cursor as string | null;
  } while (cursor);
  return items;
}

/** How many of each kind a list holds. */
export const countByKind = (items: readonly { kind: string }[]) => items.reduce<Record<string, number>>((acc, i) => ({ ...acc, [i.kind]: (acc[i.kind] ?? 0) + 1 }), {});
