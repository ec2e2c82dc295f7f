/**
 * Fixed-window counters with an atomic, conditional increment: the increment is refused once
 * the window holds `limit`, so concurrent requests can never push a counter past its limit.
 */
import type { TableClient } from './table-client';
import { isConditionFailure } from './client';
import { keys } from './keys';

export interface CounterSlot {
  limiter: string;
  subject: string;
  windowIndex: number;
}

export interface CounterResult {
  allowed: boolean;
  slot: CounterSlot;
  /** Seconds until the window ends. */
  retryAfterSeconds: number;
}

export async function incrementCounter(
  table: TableClient,
  input: { limiter: string; subject: string; limit: number; windowSeconds: number; nowSeconds: number },
): Promise<CounterResult> {
  const windowIndex = Math.floor(input.nowSeconds / input.windowSeconds);
  const windowEnd = (windowIndex + 1) * input.windowSeconds;
  const slot = { limiter: input.limiter, subject: input.subject, windowIndex };
  try {
    await table.update({
      Key: keys.rateCounter(input.limiter, input.subject, windowIndex),
      UpdateExpression: 'ADD #count :one SET #ttl = :ttl',
      ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
      ExpressionAttributeNames: { '#count': 'count', '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':one': 1, ':limit': input.limit, ':ttl': windowEnd + 60 },
    });
    return { allowed: true, slot, retryAfterSeconds: 0 };
  } catch (error) {
    if (isConditionFailure(error)) return { allowed: false, slot, retryAfterSeconds: windowEnd - input.nowSeconds };
    throw error;
  }
}

/** Give back a slot taken by `incrementCounter` (an attempt that turned out to succeed). */
export async function decrementCounter(table: TableClient, slot: CounterSlot): Promise<void> {
  await table.update({
    Key: keys.rateCounter(slot.limiter, slot.subject, slot.windowIndex),
    UpdateExpression: 'ADD #count :minus',
    ConditionExpression: 'attribute_exists(#count) AND #count > :zero',
    ExpressionAttributeNames: { '#count': 'count' },
    ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
  }).catch((error: unknown) => {
    if (!isConditionFailure(error)) throw error;
  });
}
