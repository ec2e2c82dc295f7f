/**
 * Fixed-window counters with an atomic, conditional increment: the increment is refused once
 * the window holds `limit`, so concurrent requests can never push a counter past its limit.
 *
 * A window item may also count one *part* of its total in an attribute of its own (an
 * account's failures, and among them those from one source address): the whole and the part
 * move in the one conditional write, so taking or giving back a slot under both limits is a
 * single call, and the two counts can never disagree. The same write can let a request whose
 * part is still empty go on to a higher total than the others (`freshLimit`): that is how an
 * account's owner, at an address that has not failed, stays out of a lockout that failures
 * from other addresses caused (identity/rate-limits.ts), at no extra call.
 */
import type { TableClient, TransactItem } from './table-client';
import { isConditionFailure } from './client';
import { keys } from './keys';

export interface CounterSlot {
  limiter: string;
  subject: string;
  windowIndex: number;
  /** The part counted beside the total (its attribute name), when the increment named one. */
  part?: string;
  /** When the window item may go (TTL, epoch seconds): set again by a give-back that finds it gone. */
  expiresAt: number;
}

export interface CounterResult {
  allowed: boolean;
  slot: CounterSlot;
  /** Seconds until the window ends. */
  retryAfterSeconds: number;
}

/**
 * A plain write to an item that an ongoing transaction holds (a give-back folded into a
 * login's transaction, `giveBackItem`) is refused with TransactionConflictException, which the
 * SDK does not retry; it is the same lost race as two transactions on one item, so it is tried
 * again after a short random pause, this many times.
 */
const CONFLICT_ATTEMPTS = 10;
const isTransactionConflict = (error: unknown) => error instanceof Error && error.name === 'TransactionConflictException';

async function retryingConflicts<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!isTransactionConflict(error) || attempt >= CONFLICT_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
    }
  }
}

/** The attribute a part is counted in: `name` is already a digest, never raw user input. */
const partAttribute = (name: string) => `part_${name}`;

export async function incrementCounter(
  table: TableClient,
  input: {
    limiter: string;
    subject: string;
    limit: number;
    /**
     * The part counted beside the total, with its own limit. `freshLimit`: while the part holds
     * nothing (no slot of it is taken in this window) the total may go up to this higher limit
     * instead of `limit`, decided in the same conditional write.
     */
    part?: { name: string; limit: number; freshLimit?: number };
    windowSeconds: number;
    nowSeconds: number;
  },
): Promise<CounterResult> {
  const windowIndex = Math.floor(input.nowSeconds / input.windowSeconds);
  const windowEnd = (windowIndex + 1) * input.windowSeconds;
  const part = input.part ? partAttribute(input.part.name) : undefined;
  const freshLimit = part ? input.part?.freshLimit : undefined;
  const slot: CounterSlot = { limiter: input.limiter, subject: input.subject, windowIndex, ...(part ? { part } : {}), expiresAt: windowEnd + 60 };
  try {
    await retryingConflicts(() =>
      table.update({
        Key: keys.rateCounter(input.limiter, input.subject, windowIndex),
        UpdateExpression: part ? 'ADD #count :one, #part :one SET #ttl = :ttl' : 'ADD #count :one SET #ttl = :ttl',
        ConditionExpression: !part
          ? 'attribute_not_exists(#count) OR #count < :limit'
          : freshLimit === undefined
            ? '(attribute_not_exists(#count) OR #count < :limit) AND (attribute_not_exists(#part) OR #part < :partLimit)'
            : '(attribute_not_exists(#count) OR #count < :limit OR ((attribute_not_exists(#part) OR #part < :one) AND #count < :freshLimit)) AND (attribute_not_exists(#part) OR #part < :partLimit)',
        ExpressionAttributeNames: { '#count': 'count', '#ttl': 'ttl', ...(part ? { '#part': part } : {}) },
        ExpressionAttributeValues: {
          ':one': 1, ':limit': input.limit, ':ttl': slot.expiresAt,
          ...(input.part ? { ':partLimit': input.part.limit } : {}),
          ...(freshLimit === undefined ? {} : { ':freshLimit': freshLimit }),
        },
      }),
    );
    return { allowed: true, slot, retryAfterSeconds: 0 };
  } catch (error) {
    if (isConditionFailure(error)) return { allowed: false, slot, retryAfterSeconds: windowEnd - input.nowSeconds };
    throw error;
  }
}

/** Give back a slot taken by `incrementCounter` (an attempt that turned out to succeed). */
export async function decrementCounter(table: TableClient, slot: CounterSlot): Promise<void> {
  await retryingConflicts(() =>
    table.update({
      Key: keys.rateCounter(slot.limiter, slot.subject, slot.windowIndex),
      UpdateExpression: slot.part ? 'ADD #count :minus, #part :minus' : 'ADD #count :minus',
      ConditionExpression: 'attribute_exists(#count) AND #count > :zero',
      ExpressionAttributeNames: { '#count': 'count', ...(slot.part ? { '#part': slot.part } : {}) },
      ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
    }),
  ).catch((error: unknown) => {
    if (!isConditionFailure(error)) throw error;
  });
}

/**
 * The give-back of a slot as an item of the caller's transaction (the login's own writes), so
 * it costs no call of its own. It carries no condition, so it can never cancel that
 * transaction: the window item cannot be gone yet (its TTL is a minute past the window's end,
 * and the slot was taken in the window), and if it were, the count it would leave at -1 is in
 * a window no one counts in any more, and it expires like any window item.
 */
export function giveBackItem(table: TableClient, slot: CounterSlot): TransactItem {
  return table.updateItem({
    Key: keys.rateCounter(slot.limiter, slot.subject, slot.windowIndex),
    UpdateExpression: `ADD #count :minus${slot.part ? ', #part :minus' : ''} SET #ttl = if_not_exists(#ttl, :ttl)`,
    ExpressionAttributeNames: { '#count': 'count', '#ttl': 'ttl', ...(slot.part ? { '#part': slot.part } : {}) },
    ExpressionAttributeValues: { ':minus': -1, ':ttl': slot.expiresAt },
  });
}
