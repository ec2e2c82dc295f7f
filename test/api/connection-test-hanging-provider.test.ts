/**
 * A provider that accepts the connection and never answers, for each connector that has a test:
 * the test gives up at the configured provider limit and answers 200 with a `failure` whose
 * remediation is `connectivity`, with its record in the connection's test history and the
 * `connection_tested` event in the audit log, never a 5xx. The local host gives
 * `connections-test` the timeout the stack gives it (connection-test-invocation-budget.test.ts
 * makes that the bound of the wait).
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startHangingProviders, TESTED_CONNECTORS, type HangingProviders } from '../support/hanging-providers';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';
import { expectHangingProviderFailure } from '../support/connection-test-checks';

let providers: HangingProviders;
let host: TestHost;
let http: HttpClient;
let token: string;
const clock = new MovableClock();

beforeAll(async () => {
  providers = await startHangingProviders();
  // A small provider limit keeps the test quick; the function's timeout is the stack's.
  host = await startTestHost({ clock, env: { TESSERA_CONNECTOR_ENDPOINTS: providers.endpointsJson, TESSERA_CONNECTOR_TEST_TIMEOUT_MS: '300' } });
  http = api(host.url);
  const tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  token = (await login(http, clock, tenant.admin.email)).accessToken;
});
afterAll(async () => {
  await host?.close();
  await providers?.close();
});

describe('a hanging provider, bounded by the configured provider limit', () => {
  for (const connector of TESTED_CONNECTORS) {
    it(`${connector.integrationId}: 200 failure with a connectivity remediation, recorded and audited`, async () => {
      await expectHangingProviderFailure({ http, token, providers, connector });
    });
  }
});
