/**
 * Licensed integrations: the operator CLI (run as a child process, as an operator would, on
 * this file's table) sets which integrations a tenant may use; the catalog lists only those,
 * connection creation refuses the others as unknown, and connections of an integration that
 * left the licence keep their data but neither test nor run. No licence record: everything.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchTick } from '../../shared/runs/dispatcher';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, identityAuditEvents, login, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

const run = promisify(execFile);
let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
let other: TestTenant;
let adminToken: string;
let otherToken: string;
type Integration = { integration_id: string; configuration_schema: { examples: Record<string, unknown>[] }; scope_schema: { examples: Record<string, unknown>[] } };
let fullCatalog: Integration[];
const AWS = 'int_aws_iam_discovery';
const AZURE = 'int_azure_entra_discovery';
const OKTA = 'int_okta_discovery';

beforeAll(async () => {
  host = await startTestHost({ clock });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  other = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
  otherToken = (await login(http, clock, other.admin.email)).accessToken;
  fullCatalog = ((await http.request('GET', '/v1/integrations', { token: adminToken })).body as { integrations: Integration[] }).integrations;
});
afterAll(async () => {
  await host?.close();
});

/** `npm run tessera -- …` as an operator runs it, against this file's table. */
async function tessera(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const root = path.resolve(import.meta.dirname, '../..');
  try {
    const out = await run(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'infra/local/cli.ts'), ...args], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        AWS_REGION: 'us-east-1',
        TESSERA_STAGE: 'local',
        DYNAMODB_ENDPOINT: host.config.dynamodbEndpoint,
        TESSERA_TABLE: host.config.tableName,
        TESSERA_DATA_DIR: host.config.dataDir,
      },
    });
    return { code: 0, stdout: out.stdout, stderr: out.stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const catalogIds = async (token: string) =>
  ((await http.request('GET', '/v1/integrations', { token })).body as { integrations: Integration[] }).integrations.map((i) => i.integration_id).sort();

function createBody(integrationId: string) {
  const integration = fullCatalog.find((i) => i.integration_id === integrationId)!;
  return {
    integration_id: integrationId, name: `conn ${Math.random().toString(36).slice(2, 8)}`, schedule: { type: 'daily', hour: 3, minute: 15 },
    scope: integration.scope_schema.examples[0], configuration: integration.configuration_schema.examples[0],
  };
}

const withoutRequestId = (body: unknown) => Object.fromEntries(Object.entries(body as Record<string, unknown>).filter(([name]) => name !== 'request_id'));

describe('licensed integrations', () => {
  it('a tenant without a licence record sees and uses every integration', async () => {
    expect(fullCatalog.map((i) => i.integration_id).sort()).toEqual([AWS, AZURE, OKTA]);
    expect((await http.request('POST', '/v1/connections', { token: adminToken, body: createBody(OKTA) })).status).toBe(201);
  });

  it('the CLI licenses some integrations: the catalog lists them only, creation refuses the rest as unknown, runs and tests of the rest are refused', async () => {
    const okta = await http.request('POST', '/v1/connections', { token: adminToken, body: createBody(OKTA) });
    expect(okta.status).toBe(201);
    const oktaId = (okta.body as { connection_id: string }).connection_id;

    const set = await tessera('license', '--tenant', tenant.slug, '--integrations', `${AWS},${AZURE}`);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain(`${AWS}, ${AZURE}`);

    expect(await catalogIds(adminToken)).toEqual([AWS, AZURE]);
    const refused = await http.request('POST', '/v1/connections', { token: adminToken, body: createBody(OKTA) });
    const unknown = await http.request('POST', '/v1/connections', { token: adminToken, body: { ...createBody(OKTA), integration_id: 'int_nope' } });
    expect(refused.status).toBe(400);
    expect(withoutRequestId(refused.body)).toEqual(withoutRequestId(unknown.body));
    expect((await http.request('POST', '/v1/connections', { token: adminToken, body: createBody(AWS) })).status).toBe(201);

    // The existing connection stays readable, but neither tests nor runs.
    expect((await http.request('GET', `/v1/connections/${oktaId}`, { token: adminToken })).status).toBe(200);
    const test = await http.request('POST', `/v1/connections/${oktaId}/test`, { token: adminToken });
    expect(test.status).toBe(403);
    expect(test.body).toMatchObject({ code: 'forbidden', detail: expect.stringContaining('licence') });
    const runNow = await http.request('POST', `/v1/connections/${oktaId}/runs`, { token: adminToken });
    expect(runNow.status).toBe(403);
    expect((await http.request('GET', `/v1/connections/${oktaId}/runs`, { token: adminToken })).body).toMatchObject({ runs: [] });

    // Another tenant is not affected.
    expect(await catalogIds(otherToken)).toEqual([AWS, AZURE, OKTA]);

    const events = (await identityAuditEvents(host.deps, tenant.tenantId)).filter((e) => e.action === 'tenant_license_changed');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor_id: null, target_type: 'tenant', target_id: tenant.tenantId, payload: { integrations: [AWS, AZURE], previous: null } });
    const read = await http.request('GET', `/v1/tenants/${tenant.tenantId}/audit-events?action=tenant_license_changed`, { token: adminToken });
    expect(read.status).toBe(200);
    expect((read.body as { audit_events: unknown[] }).audit_events).toHaveLength(1);

    // --all lifts it again.
    const all = await tessera('license', '--tenant', tenant.tenantId, '--all');
    expect(all.code, all.stderr).toBe(0);
    expect(await catalogIds(adminToken)).toEqual([AWS, AZURE, OKTA]);
    expect((await http.request('POST', '/v1/connections', { token: adminToken, body: createBody(OKTA) })).status).toBe(201);
  });

  it('the CLI refuses an unknown integration, an unknown tenant and contradictory options, changing nothing', async () => {
    expect((await tessera('license', '--tenant', tenant.slug, '--integrations', AZURE)).code).toBe(0);
    const unknownIntegration = await tessera('license', '--tenant', tenant.slug, '--integrations', `${AWS},int_nope`);
    expect(unknownIntegration.code).toBe(1);
    expect(unknownIntegration.stderr).toContain('int_nope');
    const unknownTenant = await tessera('license', '--tenant', 'no-such-tenant', '--all');
    expect(unknownTenant.code).toBe(2);
    expect(unknownTenant.stderr).toMatch(/no tenant/i);
    const both = await tessera('license', '--tenant', tenant.slug, '--all', '--integrations', AWS);
    expect(both.code).toBe(1);
    const shown = await tessera('license', '--tenant', tenant.slug);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`may use ${AZURE}`);
    expect(await catalogIds(adminToken)).toEqual([AZURE]);
    expect((await tessera('license', '--tenant', tenant.slug, '--all')).code).toBe(0);
  });
  it('skips the scheduled runs of a connection whose integration left the licence, and moves its schedule on', async () => {
    // Only this connection may come due: the other tenant's connections go first.
    const existing = (await http.request('GET', '/v1/connections?limit=100', { token: adminToken })).body as { connections: { connection_id: string }[] };
    for (const c of existing.connections) expect((await http.request('DELETE', `/v1/connections/${c.connection_id}`, { token: adminToken })).status).toBe(204);
    const created = await http.request('POST', '/v1/connections', { token: otherToken, body: createBody(OKTA) });
    expect(created.status).toBe(201);
    const connection = created.body as { connection_id: string; next_run_at: string };
    expect((await tessera('license', '--tenant', other.slug, '--integrations', AWS)).code).toBe(0);
    // Past the connection's slot (the last test of the file: tokens from before have expired).
    clock.advance((Date.parse(connection.next_run_at) - clock.now().getTime()) / 1000 + 60);
    const report = await dispatchTick(host.deps);
    expect(report.started).toEqual([]);
    expect(report.skipped).toEqual([connection.connection_id]);
    const token = (await login(http, clock, other.admin.email)).accessToken;
    const after = await http.request('GET', `/v1/connections/${connection.connection_id}`, { token });
    expect(Date.parse((after.body as { next_run_at: string }).next_run_at)).toBeGreaterThan(Date.parse(connection.next_run_at));
    expect((await http.request('GET', `/v1/connections/${connection.connection_id}/runs`, { token })).body).toMatchObject({ runs: [] });
  });
});
