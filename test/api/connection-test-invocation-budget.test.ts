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
import { startHangingProviders, TESTED_CONNECTORS, type HangingProviders } from '../support/hanging-providers';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

/** Room for the reads before the provider call and the provider's short wait on a loaded machine. */
const FUNCTION_TIMEOUT_MS = CONNECTION_TEST_WRITE_RESERVE_MS + 2_500;
const PROVIDER_LIMIT_MS = 60_000;

let providers: HangingProviders;
let host: TestHost;
let http: HttpClient;
let token: string;
const clock = new MovableClock();

beforeAll(async () => {
  providers = await startHangingProviders();
  host = await startTestHost({
    clock,
    env: { TESSERA_CONNECTOR_ENDPOINTS: providers.endpointsJson, TESSERA_CONNECTOR_TEST_TIMEOUT_MS: String(PROVIDER_LIMIT_MS) },
    functionTimeoutsMs: { 'connections-test': FUNCTION_TIMEOUT_MS },
  });
  http = api(host.url);
  const tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  token = (await login(http, clock, tenant.admin.email)).accessToken;
});
afterAll(async () => {
  await host?.close();
  await providers?.close();
});

describe('a hanging provider, bounded by the invocation\'s remaining time', () => {
  it('the configured limit outlasts the function', () => {
    expect(PROVIDER_LIMIT_MS).toBeGreaterThan(FUNCTION_TIMEOUT_MS);
  });

  for (const connector of TESTED_CONNECTORS) {
    it(`${connector.integrationId}: 200 failure with a connectivity remediation, recorded and audited`, async () => {
      await expectHangingProviderFailure({ http, token, providers, connector });
    });
  }
});
