/**
 * POST /v1/connections/{id}/test end to end: the real handler decrypts the stored
 * configuration and calls a provider that answers (a local Okta), then the status follows the
 * answer: healthy on success, degraded with the exact remediation when a scope is missing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { oktaToken, startFakeOkta, type FakeOkta } from '../../infra/local/stand-ins/okta';
import { startTestHost, type TestHost } from '../support/test-host';

let okta: FakeOkta;
let host: TestHost;
let http: HttpClient;
let token: string;
const clock = new MovableClock();

beforeAll(async () => {
  okta = await startFakeOkta();
  host = await startTestHost({ clock, env: { TESSERA_CONNECTOR_ENDPOINTS: JSON.stringify({ okta: okta.url }) } });
  http = api(host.url);
  const tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  token = (await login(http, clock, tenant.admin.email)).accessToken;
});
afterAll(async () => {
  await host?.close();
  await okta?.close();
});

describe('connection test against a provider that answers', () => {
  it('success makes the connection healthy; a missing scope makes it degraded with the scope to grant', async () => {
    const created = await http.request('POST', '/v1/connections', {
      token,
      body: { integration_id: 'int_okta_discovery', name: 'okta', scope: {}, schedule: { type: 'daily', hour: 4, minute: 0 }, configuration: { org_url: 'https://tessera-test.okta.com', api_token: oktaToken } },
    });
    expect(created.status).toBe(201);
    const id = (created.body as { connection_id: string }).connection_id;

    const ok = await http.request('POST', `/v1/connections/${id}/test`, { token });
    expect(ok.body).toMatchObject({ status: 'success', remediation: [] });
    // Non-empty, and every call carried the token: the one distinct authorization is it.
    expect([...new Set(okta.calls.map((c) => c.authorization))]).toEqual([`SSWS ${oktaToken}`]);
    expect((await http.request('GET', `/v1/connections/${id}`, { token })).body).toMatchObject({ status: 'healthy' });

    okta.state.scopes.delete('okta.groups.read');
    const degraded = await http.request('POST', `/v1/connections/${id}/test`, { token });
    expect(degraded.status).toBe(200);
    const result = degraded.body as { status: string; remediation: { category: string; message: string; action: string }[] };
    expect(result.status).toBe('failure');
    expect(result.remediation).toEqual([expect.objectContaining({ category: 'permissions', message: expect.stringContaining('okta.groups.read') })]);
    expect(degraded.text).not.toContain(oktaToken);
    expect((await http.request('GET', `/v1/connections/${id}`, { token })).body).toMatchObject({ status: 'degraded' });
  });
});
