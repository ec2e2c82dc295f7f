/**
 * How long a connection test may wait for its provider. A test that gives up must still commit
 * its record, the connection's new status and the audit event (one transaction) and answer
 * before the function's own timeout, or the client gets a 5xx and nothing is written. So the
 * provider gets the configured limit or what the invocation has left minus the reserve,
 * whichever is shorter; the stack sizes the function's timeout from the same reserve
 * (infra/function-timeouts.ts).
 */

/** Kept back from the provider for the transaction and the answer (DynamoDB answers in tens of ms; this allows for retries). */
export const CONNECTION_TEST_WRITE_RESERVE_MS = 2_000;

/** Milliseconds the provider may take: never more than configured, never into the reserve, never negative. */
export function providerBudgetMs(configuredTimeoutMs: number, remainingTimeMs: number): number {
  return Math.max(0, Math.min(configuredTimeoutMs, remainingTimeMs - CONNECTION_TEST_WRITE_RESERVE_MS));
}
