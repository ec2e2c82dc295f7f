/**
 * A lost race is told from every other DynamoDB failure: a failed condition, or a transaction
 * cancelled because one of its conditions failed or a parallel transaction won; and which items.
 */
import { describe, expect, it } from 'vitest';
import { createDynamoDbClient, failedConditionIndexes, isConditionFailure } from '../../shared/store/client';

const named = (name: string, extra: Record<string, unknown> = {}) => Object.assign(new Error('x'), { name }, extra);
const cancelled = (codes: (string | undefined)[] | undefined) => named('TransactionCanceledException', codes === undefined ? {} : { CancellationReasons: codes.map((Code) => (Code === undefined ? {} : { Code })) });

describe('condition failures', () => {
  it('a failed condition, or a cancellation by a condition or a conflict, is a lost race', () => {
    expect(isConditionFailure(named('ConditionalCheckFailedException'))).toBe(true);
    expect(isConditionFailure(cancelled(['None', 'ConditionalCheckFailed']))).toBe(true);
    expect(isConditionFailure(cancelled(['TransactionConflict', 'None']))).toBe(true);
  });

  it('anything else is not: other cancellations, other errors, non-errors', () => {
    expect(isConditionFailure(cancelled(['None', 'ValidationError']))).toBe(false);
    expect(isConditionFailure(cancelled(undefined))).toBe(false);
    expect(isConditionFailure(named('ProvisionedThroughputExceededException'))).toBe(false);
    expect(isConditionFailure({ name: 'ConditionalCheckFailedException' })).toBe(false);
  });

  it('names the items of a cancelled transaction that lost, by index', () => {
    expect(failedConditionIndexes(cancelled(['None', 'ConditionalCheckFailed', undefined, 'TransactionConflict']))).toEqual([1, 3]);
    expect(failedConditionIndexes(cancelled(undefined))).toEqual([]);
    expect(failedConditionIndexes(named('ConditionalCheckFailedException'))).toEqual([]);
    expect(failedConditionIndexes('nope')).toEqual([]);
  });
});

describe('the DynamoDB client', () => {
  it('uses fixed local credentials only for a local endpoint', async () => {
    const local = createDynamoDbClient({ region: 'eu-west-1', dynamodbEndpoint: 'http://127.0.0.1:8000' });
    const credentials = local.config.credentials;
    expect(await credentials()).toMatchObject({ accessKeyId: 'local', secretAccessKey: 'local' });
    expect(await local.config.region()).toBe('eu-west-1');
    // Only ItemCalls sends through it, with low-level commands: they allow the stacks cached.
    expect(local.config.cacheMiddleware).toBe(true);
    // No logger is given: its middleware would only build redacted copies for the no-op one.
    const stack = local.middlewareStack.identify();
    expect(stack.some((name) => name.startsWith('retryMiddleware'))).toBe(true);
    expect(stack.filter((name) => name.startsWith('loggerMiddleware'))).toEqual([]);
    const aws = createDynamoDbClient({ region: 'eu-west-1', dynamodbEndpoint: undefined });
    expect(aws.config.endpoint).toBeUndefined();
    local.destroy();
    aws.destroy();
  });
});
