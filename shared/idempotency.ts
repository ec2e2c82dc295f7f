/**
 * Idempotency-Key for POST requests (draft-ietf-httpapi-idempotency-key-header): a retry with
 * the same key and body within 24 hours answers the first result and does nothing; the same
 * key with another body is refused (422); a retry while the first is still running, 409.
 *
 * The record is claimed before the work starts and completed in the same transaction as the
 * work's own writes, so a crash in between leaves an in-flight claim that expires, never a
 * half-done creation with no record of it.
 */
import { createHash } from 'node:crypto';
import { isoNow } from './clock';
import type { Deps } from './deps';
import { ConflictError, TesseraError } from './errors';
import { IdempotencyKeySchema } from './http/headers';
import { parseWith } from './schemas/validation';
import { sha256Hex } from './crypto/opaque-tokens';
import { isConditionFailure } from './store/client';
import { keys } from './store/keys';
import type { IdempotencyRecord } from './store/records';
import type { TransactItem } from './store/table-client';

const RETENTION_SECONDS = 24 * 3600;
/** An in-flight claim older than this is from a request that died: it may be taken over. */
const IN_FLIGHT_TIMEOUT_MS = 60_000;

export interface IdempotencyScope {
  tenantId: string;
  workspaceId: string;
  userId: string;
}

export interface Replayed {
  statusCode: number;
  body: unknown;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function assertIdempotencyKey(key: string): void {
  parseWith(IdempotencyKeySchema, key, 'Idempotency-Key');
}

/**
 * Runs `work` at most once per (scope, key). `work` receives the transaction item that marks
 * the key completed with its answer, and must commit it with its own writes.
 */
export async function withIdempotencyKey<T>(
  deps: Deps,
  scope: IdempotencyScope,
  key: string,
  requestBody: unknown,
  work: (complete: (statusCode: number, body: T) => TransactItem) => Promise<{ statusCode: number; body: T }>,
): Promise<{ statusCode: number; body: unknown; replayed: boolean }> {
  assertIdempotencyKey(key);
  const itemKey = keys.idempotencyRecord(scope.tenantId, scope.workspaceId, scope.userId, sha256Hex(key));
  const fingerprint = createHash('sha256').update(canonicalJson(requestBody)).digest('hex');
  const now = deps.clock.now();
  const claim: IdempotencyRecord = { state: 'in_flight', fingerprint, status_code: null, response: null, created_at: now.toISOString() };
  try {
    await deps.table.put({
      Item: { ...itemKey, ...claim, ttl: Math.floor(now.getTime() / 1000) + RETENTION_SECONDS },
      ConditionExpression: 'attribute_not_exists(PK) OR (#state = :inflight AND created_at < :stale)',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':inflight': 'in_flight', ':stale': new Date(now.getTime() - IN_FLIGHT_TIMEOUT_MS).toISOString() },
    });
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const existing = await deps.table.get<IdempotencyRecord>(itemKey);
    if (!existing) throw new ConflictError('The request with this Idempotency-Key is being processed; retry');
    if (existing.fingerprint !== fingerprint) throw new TesseraError('unprocessable', 'This Idempotency-Key was used with another request body');
    if (existing.state === 'in_flight') throw new ConflictError('The request with this Idempotency-Key is still being processed; retry later');
    return { statusCode: existing.status_code ?? 200, body: existing.response, replayed: true };
  }

  const complete = (statusCode: number, body: T): TransactItem =>
    deps.table.updateItem({
      Key: itemKey,
      UpdateExpression: 'SET #state = :done, status_code = :status, #response = :response, completed_at = :now',
      ConditionExpression: '#state = :inflight AND fingerprint = :fp',
      ExpressionAttributeNames: { '#state': 'state', '#response': 'response' },
      ExpressionAttributeValues: { ':done': 'completed', ':status': statusCode, ':response': body, ':now': isoNow(deps.clock), ':inflight': 'in_flight', ':fp': fingerprint },
    });
  try {
    const result = await work(complete);
    return { ...result, replayed: false };
  } catch (error) {
    // The work failed and wrote nothing: free the key so a corrected retry can run.
    await deps.table.delete({ Key: itemKey, ConditionExpression: '#state = :inflight', ExpressionAttributeNames: { '#state': 'state' }, ExpressionAttributeValues: { ':inflight': 'in_flight' } }).catch(() => undefined);
    throw error;
  }
}
