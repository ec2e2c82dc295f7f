/**
 * A provider that accepts the connection and never answers, for each connector that has a test:
 * the test gives up at the configured provider limit and answers 200 with a `failure` whose
 * remediation is `connectivity`, with its record in the connection's test history and the
 * `connection_tested` event in the audit log, never a 5xx. The local host gives
 * `connections-test` the timeout the stack gives it (connection-test-invocation-budget.test.ts
 * makes that the bound of the wait).
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectHangingProviderFailure } from '../support/connection-test-checks';
import { startHangingProviderHost, TESTED_CONNECTORS, type HangingProviderHost } from '../support/hanging-providers';
import { MovableClock } from '../support/movable-clock';

let setup: HangingProviderHost;
const clock = new MovableClock();

// A small provider limit keeps the test quick; the function's timeout is the stack's.
beforeAll(async () => {
  setup = await startHangingProviderHost(clock, 300);
});
afterAll(() => setup?.close());

describe('a hanging provider, bounded by the configured provider limit', () => {
  for (const connector of TESTED_CONNECTORS) {
    it(`${connector.integrationId}: 200 failure with a connectivity remediation, recorded and audited`, async () => {
      await expectHangingProviderFailure({ http: setup.http, token: setup.token, providers: setup.providers, connector });
    });
  }
});
