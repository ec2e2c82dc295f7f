/**
 * The fixed-window counters' answers to DynamoDB's: a failed condition is a full window (or a
 * slot already given back), anything else is not theirs to hide.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { decrementCounter, incrementCounter } from '../../shared/store/rate-counters';
import { TableClient } from '../../shared/store/table-client';

const named = (name: string) => Object.assign(new Error(name), { name });
/** A table whose every update answers `outcome` (an Error is thrown), recording the updates. */
function tableAnswering(outcome: Error | object) {
  const sent: Record<string, unknown>[] = [];
  const db = {
    send: (command: { input: Record<string, unknown> }) => {
      sent.push(command.input);
      return outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve(outcome);
    },
  };
  return { table: new TableClient(db as unknown as DynamoDBDocumentClient, 'T'), sent };
}
const input = { limiter: 'login', subject: 'ip#1', limit: 5, windowSeconds: 60, nowSeconds: 6_010 };

describe('rate counters', () => {
  it('counts within the window', async () => {
    const { table, sent } = tableAnswering({});
    expect(await incrementCounter(table, input)).toEqual({ allowed: true, slot: { limiter: 'login', subject: 'ip#1', windowIndex: 100 }, retryAfterSeconds: 0 });
    expect(sent[0]).toMatchObject({ ExpressionAttributeValues: { ':one': 1, ':limit': 5, ':ttl': 6_060 + 60 } });
  });

  it('refuses once the window is full, until it ends', async () => {
    const { table } = tableAnswering(named('ConditionalCheckFailedException'));
    expect(await incrementCounter(table, input)).toEqual({ allowed: false, slot: { limiter: 'login', subject: 'ip#1', windowIndex: 100 }, retryAfterSeconds: 50 });
  });

  it('lets other failures through', async () => {
    await expect(incrementCounter(tableAnswering(named('ProvisionedThroughputExceededException')).table, input)).rejects.toThrow('ProvisionedThroughputExceededException');
    await expect(decrementCounter(tableAnswering(named('InternalServerError')).table, { limiter: 'login', subject: 'ip#1', windowIndex: 100 })).rejects.toThrow('InternalServerError');
  });

  it('gives a slot back, and a slot already given back is no error', async () => {
    const given = tableAnswering({});
    await decrementCounter(given.table, { limiter: 'login', subject: 'ip#1', windowIndex: 100 });
    expect(given.sent[0]).toMatchObject({ UpdateExpression: 'ADD #count :minus', ExpressionAttributeValues: { ':minus': -1, ':zero': 0 } });
    await expect(decrementCounter(tableAnswering(named('ConditionalCheckFailedException')).table, { limiter: 'login', subject: 'ip#1', windowIndex: 100 })).resolves.toBeUndefined();
  });
});
