/**
 * A lost race is told from every other DynamoDB failure: a failed condition, or a transaction
 * cancelled because one of its conditions failed or a parallel transaction won; and which items.
 */
import { describe, expect, it } from 'vitest';
import { AwsServiceError } from '../../shared/aws/aws-json-client';
import { failedConditionIndexes, isConditionFailure } from '../../shared/store/client';

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

describe('condition failures as the wire client reports them', () => {
  it('reads the cancellation reasons a TransactionCanceledException answer carries', () => {
    const answer = new AwsServiceError('TransactionCanceledException', 'Transaction cancelled', 400, { CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }] });
    expect(isConditionFailure(answer)).toBe(true);
    expect(failedConditionIndexes(answer)).toEqual([1]);
    expect(isConditionFailure(new AwsServiceError('TransactionCanceledException', 'x', 400, { CancellationReasons: [{ Code: 'ValidationError' }] }))).toBe(false);
  });
});
