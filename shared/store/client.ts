/** The DynamoDB client, created once per cold start from the config. */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Config } from '../config';
import { tracing } from '../tracing';

/**
 * The low-level client for the one table. `cacheMiddleware` resolves each operation's
 * middleware stack once per process instead of at every send. That is safe only for plain
 * low-level commands, which carry no middleware of their own: `ItemCalls` (`item-calls.ts`)
 * sends nothing else, and neither may anyone else who holds this client (`deps.db`); the
 * document client's commands would replay the first one's input.
 */
export function createDynamoDbClient(config: Pick<Config, 'region' | 'dynamodbEndpoint'>): DynamoDBClient {
  const client = new DynamoDBClient({
    region: config.region,
    cacheMiddleware: true,
    ...(config.dynamodbEndpoint
      ? {
          endpoint: config.dynamodbEndpoint,
          // DynamoDB Local accepts any credentials; fixed ones keep the SDK from searching for a profile.
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {}),
  });
  // The client is given no logger, yet its logger middleware builds a redacted copy of every
  // input and output for the no-op one (a quarter of a millisecond of CPU per login here).
  client.middlewareStack.remove('loggerMiddleware');
  return tracing.captureClient(client);
}

/** True when a DynamoDB call failed on its ConditionExpression (or a transaction's). */
export function isConditionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'ConditionalCheckFailedException') return true;
  if (error.name === 'TransactionCanceledException') {
    const reasons = (error as Error & { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
    // A TransactionConflict is a parallel transaction on the same item winning the race (real
    // DynamoDB says so where DynamoDB Local fails the condition): the same lost race.
    return reasons.some((r) => r.Code === 'ConditionalCheckFailed' || r.Code === 'TransactionConflict');
  }
  return false;
}

/** Which items of a cancelled transaction failed their condition, or lost to a parallel one (by index). */
export function failedConditionIndexes(error: unknown): number[] {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return [];
  const reasons = (error as Error & { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return reasons.flatMap((r, i) => (r.Code === 'ConditionalCheckFailed' || r.Code === 'TransactionConflict' ? [i] : []));
}
