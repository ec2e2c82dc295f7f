/**
 * The provider's wait is bounded by what the invocation has left, not only by the configured
 * limit: here the provider limit is the longest the configuration allows (60 s) and
 * `connections-test` gets a short timeout from the local host. A deadline taken from the
 * configured limit alone (or one without the reserve for the commit) runs into the function's
 * timeout and answers 500 (the handler's middy chain stops an invocation just before its
 * context's deadline, as in AWS); the deadline taken from the Lambda context (its remaining
 * time minus the reserve) answers 200 `failure`, recorded and audited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTION_TEST_WRITE_RESERVE_MS } from '../../shared/connections/connection-test-budget';
import { expectHangingProviderFailure } from '../support/connection-test-checks';
import { startHangingProviderHost, TESTED_CONNECTORS, type HangingProviderHost } from '../support/hanging-providers';
import { MovableClock } from '../support/movable-clock';

/** Room for the reads before the provider call and the provider's short wait on a loaded machine. */
const FUNCTION_TIMEOUT_MS = CONNECTION_TEST_WRITE_RESERVE_MS + 2_500;
const PROVIDER_LIMIT_MS = 60_000;

let setup: HangingProviderHost;
const clock = new MovableClock();

beforeAll(async () => {
  setup = await startHangingProviderHost(clock, PROVIDER_LIMIT_MS, { 'connections-test': FUNCTION_TIMEOUT_MS });
});
afterAll(() => setup?.close());

describe('a hanging provider, bounded by the invocation\'s remaining time', () => {
  it('the configured limit outlasts the function', () => {
    expect(PROVIDER_LIMIT_MS).toBeGreaterThan(FUNCTION_TIMEOUT_MS);
  });

  for (const connector of TESTED_CONNECTORS) {
    it(`${connector.integrationId}: 200 failure with a connectivity remediation, recorded and audited`, async () => {
      await expectHangingProviderFailure({ http: setup.http, token: setup.token, providers: setup.providers, connector });
    });
  }
});
