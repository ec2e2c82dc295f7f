/**
 * The checks of a connection test against a provider that never answers, through the HTTP
 * surface only: the answer, the test history and the audit log.
 */
import { expect } from 'vitest';
import type { HangingProviders, TESTED_CONNECTORS } from './hanging-providers';
import type { HttpClient } from './http-client';

interface CatalogEntry {
  integration_id: string;
  configuration_schema: { examples: Record<string, unknown>[] };
  scope_schema: { examples: Record<string, unknown>[] };
}

export async function expectHangingProviderFailure(options: {
  http: HttpClient;
  token: string;
  providers: HangingProviders;
  connector: (typeof TESTED_CONNECTORS)[number];
}): Promise<void> {
  const { http, token, providers, connector } = options;
  const catalog = ((await http.request('GET', '/v1/integrations', { token })).body as { integrations: CatalogEntry[] }).integrations;
  const integration = catalog.find((i) => i.integration_id === connector.integrationId)!;
  const created = await http.request('POST', '/v1/connections', {
    token,
    body: {
      integration_id: integration.integration_id,
      name: `hanging ${integration.integration_id}`,
      scope: integration.scope_schema.examples[0],
      schedule: { type: 'daily', hour: 3, minute: 15 },
      configuration: integration.configuration_schema.examples[0],
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const connectionId = (created.body as { connection_id: string }).connection_id;
  const heldBefore = providers.held[connector.firstEndpoint];

  const res = await http.request('POST', `/v1/connections/${connectionId}/test`, { token });
  expect(res.status, res.text).toBe(200);
  const result = res.body as { test_id: string; status: string; checked_at: string; remediation: { category: string; message: string; action: string }[] };
  expect(result).toMatchObject({ status: 'failure', test_id: expect.any(String), checked_at: expect.any(String) });
  expect(result.remediation.map((r) => r.category)).toContain('connectivity');
  // The provider was reached and held the request: the failure is the wait, not a refusal.
  expect(providers.held[connector.firstEndpoint]).toBeGreaterThan(heldBefore);

  const history = (await http.request('GET', `/v1/connections/${connectionId}/tests`, { token })).body as { tests: { test_id: string; status: string }[] };
  expect(history.tests).toEqual([expect.objectContaining({ test_id: result.test_id, status: 'failure' })]);
  expect((await http.request('GET', `/v1/connections/${connectionId}`, { token })).body).toMatchObject({ status: 'degraded' });
  const audit = (await http.request('GET', `/v1/audit-events?action=connection_tested&target_id=${connectionId}`, { token })).body as { audit_events: { action: string; payload: Record<string, unknown> }[] };
  expect(audit.audit_events).toEqual([expect.objectContaining({ action: 'connection_tested', payload: expect.objectContaining({ test_id: result.test_id, status: 'failure', remediation_categories: expect.arrayContaining(['connectivity']) }) })]);
}
