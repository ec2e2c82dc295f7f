/**
 * Provider endpoints that accept a connection and the request on it, then never answer: what a
 * hung provider (or a black-holed proxy) looks like to a connector. One server per endpoint name
 * of the connectors (`sts`, `iam`, `login`, `graph`, `arm`, `okta`), each counting the requests
 * it holds, so a test can tell a wait on the provider from a refusal before any call.
 */
import { api, type HttpClient } from './http-client';
import { createTestTenant, login } from './identity-fixtures';
import type { MovableClock } from './movable-clock';
import { startLocalServer, type LocalServer } from '../../infra/local/stand-ins/local-server';
import { startTestHost, type TestHost } from './test-host';

export const PROVIDER_ENDPOINT_NAMES = ['sts', 'iam', 'login', 'graph', 'arm', 'okta'] as const;

export interface HangingProviders {
  /** `TESSERA_CONNECTOR_ENDPOINTS`: every provider endpoint sent to a server that never answers. */
  endpointsJson: string;
  /** Requests held so far, by endpoint name. */
  held: Record<(typeof PROVIDER_ENDPOINT_NAMES)[number], number>;
  close(): Promise<void>;
}

export async function startHangingProviders(): Promise<HangingProviders> {
  const held = Object.fromEntries(PROVIDER_ENDPOINT_NAMES.map((name) => [name, 0])) as HangingProviders['held'];
  const servers: [string, LocalServer][] = [];
  for (const name of PROVIDER_ENDPOINT_NAMES) {
    servers.push([name, await startLocalServer(() => {
      held[name] += 1;
      return 'hang';
    })]);
  }
  return {
    endpointsJson: JSON.stringify(Object.fromEntries(servers.map(([name, server]) => [name, server.url]))),
    held,
    close: async () => {
      await Promise.all(servers.map(([, server]) => server.close()));
    },
  };
}

/** Each connector that has a test, and the endpoint its test calls first. */
export const TESTED_CONNECTORS = [
  { integrationId: 'int_aws_iam_discovery', firstEndpoint: 'sts' },
  { integrationId: 'int_azure_entra_discovery', firstEndpoint: 'login' },
  { integrationId: 'int_okta_discovery', firstEndpoint: 'okta' },
] as const;

export interface HangingProviderHost {
  providers: HangingProviders;
  host: TestHost;
  http: HttpClient;
  /** An admin's access token in a tenant without MFA. */
  token: string;
  close(): Promise<void>;
}

/** The hanging providers, a test host whose connectors call them, and an admin signed in. */
export async function startHangingProviderHost(clock: MovableClock, providerLimitMs: number, functionTimeoutsMs?: Readonly<Record<string, number>>): Promise<HangingProviderHost> {
  const providers = await startHangingProviders();
  const host = await startTestHost({
    clock,
    env: { TESSERA_CONNECTOR_ENDPOINTS: providers.endpointsJson, TESSERA_CONNECTOR_TEST_TIMEOUT_MS: String(providerLimitMs) },
    ...(functionTimeoutsMs ? { functionTimeoutsMs } : {}),
  });
  const http = api(host.url);
  const tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  const token = (await login(http, clock, tenant.admin.email)).accessToken;
  return {
    providers,
    host,
    http,
    token,
    close: async () => {
      await host.close();
      await providers.close();
    },
  };
}
