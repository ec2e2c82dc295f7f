/**
 * The fixed-window counters' answers to DynamoDB's: a failed condition is a full window (or a
 * slot already given back), a transaction holding the item is waited out, anything else is not
 * theirs to hide.
 */
import { describe, expect, it } from 'vitest';
import { decrementCounter, giveBackItem, incrementCounter } from '../../shared/store/rate-counters';
import type { ItemCalls } from '../../shared/store/item-calls';
import { TableClient } from '../../shared/store/table-client';

const named = (name: string) => Object.assign(new Error(name), { name });
/** A table whose updates answer `outcomes` in turn, the last one ever after (an Error is thrown), recording the updates. */
function tableAnswering(...outcomes: (Error | object)[]) {
  const sent: Record<string, unknown>[] = [];
  const calls = {
    update: (input: Record<string, unknown>) => {
      sent.push(input);
      const outcome = outcomes.length > 1 ? outcomes.shift()! : outcomes[0]!;
      return outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve(outcome);
    },
  };
  return { table: new TableClient(calls as unknown as ItemCalls, 'T'), sent };
}
const input = { limiter: 'login', subject: 'ip#1', limit: 5, windowSeconds: 60, nowSeconds: 6_010 };
const slot = { limiter: 'login', subject: 'ip#1', windowIndex: 100, expiresAt: 6_060 + 60 };

describe('rate counters', () => {
  it('counts within the window', async () => {
    const { table, sent } = tableAnswering({});
    expect(await incrementCounter(table, input)).toEqual({ allowed: true, slot, retryAfterSeconds: 0 });
    expect(sent[0]).toMatchObject({ ExpressionAttributeValues: { ':one': 1, ':limit': 5, ':ttl': 6_060 + 60 } });
  });

  it('refuses once the window is full, until it ends', async () => {
    const { table } = tableAnswering(named('ConditionalCheckFailedException'));
    expect(await incrementCounter(table, input)).toEqual({ allowed: false, slot, retryAfterSeconds: 50 });
  });

  it('lets other failures through', async () => {
    await expect(incrementCounter(tableAnswering(named('ProvisionedThroughputExceededException')).table, input)).rejects.toThrow('ProvisionedThroughputExceededException');
    await expect(decrementCounter(tableAnswering(named('InternalServerError')).table, slot)).rejects.toThrow('InternalServerError');
  });

  it('gives a slot back, and a slot already given back is no error', async () => {
    const given = tableAnswering({});
    await decrementCounter(given.table, slot);
    expect(given.sent[0]).toMatchObject({ UpdateExpression: 'ADD #count :minus', ExpressionAttributeValues: { ':minus': -1, ':zero': 0 } });
    await expect(decrementCounter(tableAnswering(named('ConditionalCheckFailedException')).table, slot)).resolves.toBeUndefined();
  });

  it('counts a part of the total in the same write, under a limit of its own, and gives both back together', async () => {
    const { table, sent } = tableAnswering({});
    const counted = await incrementCounter(table, { ...input, part: { name: 'abc', limit: 2 } });
    expect(counted).toEqual({ allowed: true, slot: { ...slot, part: 'part_abc' }, retryAfterSeconds: 0 });
    expect(sent[0]).toMatchObject({
      UpdateExpression: 'ADD #count :one, #part :one SET #ttl = :ttl',
      ConditionExpression: '(attribute_not_exists(#count) OR #count < :limit) AND (attribute_not_exists(#part) OR #part < :partLimit)',
      ExpressionAttributeNames: { '#count': 'count', '#part': 'part_abc' },
      ExpressionAttributeValues: { ':limit': 5, ':partLimit': 2 },
    });
    await decrementCounter(table, counted.slot);
    expect(sent[1]).toMatchObject({ UpdateExpression: 'ADD #count :minus, #part :minus', ExpressionAttributeNames: { '#count': 'count', '#part': 'part_abc' } });
  });

  it('gives a slot back inside a transaction without a condition that could cancel it, keeping the item expiring', () => {
    const { table } = tableAnswering({});
    const item = giveBackItem(table, { ...slot, part: 'part_abc' });
    expect(item.Update).toMatchObject({ TableName: 'T', UpdateExpression: 'ADD #count :minus, #part :minus SET #ttl = if_not_exists(#ttl, :ttl)', ExpressionAttributeValues: { ':minus': -1, ':ttl': 6_120 } });
    expect(item.Update).not.toHaveProperty('ConditionExpression');
  });

  it('waits out a transaction that holds the counter (a give-back in a login), then counts', async () => {
    const { table, sent } = tableAnswering(named('TransactionConflictException'), named('TransactionConflictException'), {});
    expect(await incrementCounter(table, input)).toMatchObject({ allowed: true });
    expect(sent).toHaveLength(3);
    const busy = tableAnswering(named('TransactionConflictException'));
    await expect(incrementCounter(busy.table, input)).rejects.toThrow('TransactionConflictException');
    expect(busy.sent).toHaveLength(10);
  });
});
