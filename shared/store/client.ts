/**
 * The DynamoDB client, created once per cold start from the config: DynamoDB's JSON 1.0
 * protocol (`X-Amz-Target: DynamoDB_20120810.<Operation>`, attribute values on the wire as the
 * API reference gives them) through Tessera's signed-request module, with the SDK's standard
 * retries and DynamoDB's `x-amz-crc32` answer check.
 *
 * Why not `@aws-sdk/client-dynamodb`: its runtime (`@smithy/core`, the endpoint rule engine,
 * the serde of some fifty operations) was two thirds of every function's bundle and most of its
 * import time, for the eight item operations `ItemCalls` sends (docs/benchmarks.md, cold starts).
 * The SDK's clients stay for the bench's floor and the tests' own raw calls.
 */
import { createAwsJsonClient, type AwsJsonClient } from '../aws/aws-json-client';
import type { Config } from '../config';

/** The operations Tessera sends: the item calls, and the table's own for the local host and tests. */
export type DynamoDbOperation =
  | 'GetItem'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'Query'
  | 'BatchGetItem'
  | 'BatchWriteItem'
  | 'TransactWriteItems'
  | 'CreateTable'
  | 'DescribeTable'
  | 'DeleteTable'
  | 'UpdateTimeToLive';

export interface DynamoDbClient extends AwsJsonClient {
  call<Output = Record<string, unknown>>(operation: DynamoDbOperation, input: object): Promise<Output>;
}

export function createDynamoDbClient(config: Pick<Config, 'region' | 'dynamodbEndpoint'>): DynamoDbClient {
  return createAwsJsonClient(
    { service: 'dynamodb', tracedName: 'DynamoDB', targetPrefix: 'DynamoDB_20120810', jsonVersion: '1.0', checkCrc32: true },
    {
      region: config.region,
      endpoint: config.dynamodbEndpoint,
      // DynamoDB Local accepts any credentials; fixed ones keep a local run from needing AWS keys.
      ...(config.dynamodbEndpoint ? { credentials: () => Promise.resolve({ accessKeyId: 'local', secretAccessKey: 'local' }) } : {}),
    },
  );
}

type CancellationReason = { Code?: string };
const cancellationReasons = (error: Error): CancellationReason[] => {
  const reasons = (error as Error & { CancellationReasons?: unknown }).CancellationReasons;
  return Array.isArray(reasons) ? (reasons as CancellationReason[]) : [];
};

/** True when a DynamoDB call failed on its ConditionExpression (or a transaction's). */
export function isConditionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'ConditionalCheckFailedException') return true;
  if (error.name === 'TransactionCanceledException') {
    // A TransactionConflict is a parallel transaction on the same item winning the race (real
    // DynamoDB says so where DynamoDB Local fails the condition): the same lost race.
    return cancellationReasons(error).some((r) => r.Code === 'ConditionalCheckFailed' || r.Code === 'TransactionConflict');
  }
  return false;
}

/** Which items of a cancelled transaction failed their condition, or lost to a parallel one (by index). */
export function failedConditionIndexes(error: unknown): number[] {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return [];
  return cancellationReasons(error).flatMap((r, i) => (r.Code === 'ConditionalCheckFailed' || r.Code === 'TransactionConflict' ? [i] : []));
}
