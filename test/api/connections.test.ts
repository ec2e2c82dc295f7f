import { envelopeOf } from '../../shared/crypto/envelope';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../shared/store/keys';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, login, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

// Providers are unreachable here (a closed port): connector behaviour is tested in test/peers.
const NOWHERE = 'http://127.0.0.1:9';
const ENDPOINTS = JSON.stringify({ sts: NOWHERE, iam: NOWHERE, login: NOWHERE, graph: NOWHERE, arm: NOWHERE, okta: NOWHERE });

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
const tokens: Record<'admin' | 'connector_builder' | 'viewer' | 'otherWorkspace', string> = { admin: '', connector_builder: '', viewer: '', otherWorkspace: '' };
let otherWorkspaceId: string;
type Integration = { integration_id: string; connector_id: string; version: string; configuration_schema: { examples: Record<string, unknown>[] }; scope_schema: { examples: Record<string, unknown>[] } };
let catalog: Integration[];
type Connection = { connection_id: string; name: string; status: string; scope: Record<string, unknown>; schedule: Record<string, unknown> };

const schedule = { type: 'daily', hour: 3, minute: 15 };

function createBody(integration: Integration, name = `conn ${Math.random().toString(36).slice(2, 8)}`) {
  return { integration_id: integration.integration_id, name, scope: integration.scope_schema.examples[0], schedule, configuration: integration.configuration_schema.examples[0] };
}

async function create(token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return http.request('POST', '/v1/connections', { token, body, headers });
}

async function createOk(token = tokens.admin, integration = catalog[0]!): Promise<Connection> {
  const res = await create(token, createBody(integration));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as Connection;
}

async function countWrites(): Promise<number> {
  const out = await host.documents.send(new ScanCommand({ TableName: host.config.tableName, Select: 'COUNT' }));
  return out.Count ?? 0;
}

beforeAll(async () => {
  host = await startTestHost({ clock, env: { TESSERA_CONNECTOR_ENDPOINTS: ENDPOINTS, TESSERA_CONNECTOR_TEST_TIMEOUT_MS: '1000' } });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  const admin = await login(http, clock, tenant.admin.email);
  tokens.admin = admin.accessToken;
  await createUser(http, tokens.admin, { email: `builder@${tenant.domain}`, role: 'connector_builder' });
  await createUser(http, tokens.admin, { email: `viewer@${tenant.domain}`, role: 'viewer' });
  tokens.connector_builder = (await login(http, clock, `builder@${tenant.domain}`)).accessToken;
  tokens.viewer = (await login(http, clock, `viewer@${tenant.domain}`)).accessToken;
  const ws = await http.request('POST', '/v1/workspaces', { token: tokens.admin, body: { name: 'Elsewhere' } });
  otherWorkspaceId = (ws.body as { id: string }).id;
  const switched = await http.request('POST', '/v1/auth/token', { body: { grant_type: 'refresh_token', refresh_token: admin.refreshToken, workspace_id: otherWorkspaceId } });
  tokens.otherWorkspace = (switched.body as { access_token: string }).access_token;
  catalog = ((await http.request('GET', '/v1/integrations', { token: tokens.viewer })).body as { integrations: Integration[] }).integrations;
});
afterAll(() => host?.close());

describe('catalog', () => {
  it('lists the three discovery integrations to any role', () => {
    expect(catalog.map((i) => (i as unknown as { provider_system: string }).provider_system).sort()).toEqual(['cloud_provider_a', 'cloud_provider_b', 'identity_provider_a']);
  });
});

describe('connections: every verb × role × {own workspace, other workspace, missing id}', () => {
  const MISSING = 'conn_00000000000000000000000000';
  const roles = ['admin', 'connector_builder', 'viewer'] as const;
  const verbs = [
    { name: 'GET one', write: false, call: (t: string, id: string) => http.request('GET', `/v1/connections/${id}`, { token: t }), ok: 200 },
    { name: 'GET tests', write: false, call: (t: string, id: string) => http.request('GET', `/v1/connections/${id}/tests`, { token: t }), ok: 200 },
    { name: 'GET runs', write: false, call: (t: string, id: string) => http.request('GET', `/v1/connections/${id}/runs`, { token: t }), ok: 200 },
    { name: 'PATCH', write: true, call: (t: string, id: string) => http.request('PATCH', `/v1/connections/${id}`, { token: t, body: { name: 'renamed' } }), ok: 200 },
    { name: 'POST test', write: true, call: (t: string, id: string) => http.request('POST', `/v1/connections/${id}/test`, { token: t }), ok: 200 },
    { name: 'DELETE', write: true, call: (t: string, id: string) => http.request('DELETE', `/v1/connections/${id}`, { token: t }), ok: 204 },
  ];

  for (const role of roles) {
    for (const verb of verbs) {
      it(`${role} ${verb.name}`, async () => {
        const own = await createOk();
        const other = await createOk(tokens.otherWorkspace);
        const token = tokens[role];
        const expectDenied = verb.write && role === 'viewer';
        const onOwn = await verb.call(token, own.connection_id);
        expect(onOwn.status, JSON.stringify(onOwn.body)).toBe(expectDenied ? 403 : verb.ok);
        // 403 comes before existence: a viewer learns nothing about which ids exist.
        for (const id of [other.connection_id, MISSING]) {
          const res = await verb.call(token, id);
          expect(res.status, `${id}: ${JSON.stringify(res.body)}`).toBe(expectDenied ? 403 : 404);
        }
        // The other workspace's connection is untouched and still there for its owner.
        expect((await http.request('GET', `/v1/connections/${other.connection_id}`, { token: tokens.otherWorkspace })).body).toMatchObject({ name: other.name });
      });
    }
    it(`${role} POST create and GET list`, async () => {
      const res = await create(tokens[role], createBody(catalog[1]!));
      expect(res.status).toBe(role === 'viewer' ? 403 : 201);
      const list = await http.request('GET', '/v1/connections?limit=100', { token: tokens[role] });
      expect(list.status).toBe(200);
      const workspaces = new Set((list.body as { connections: { workspace_id: string }[] }).connections.map((c) => c.workspace_id));
      expect([...workspaces]).toEqual([tenant.workspaceId]);
    });
  }
});

describe('create', () => {
  it('copies connector id and version, starts unknown, never answers or stores the configuration in plaintext', async () => {
    const integration = catalog[0]!;
    const body = createBody(integration);
    const res = await create(tokens.connector_builder, body);
    expect(res.status).toBe(201);
    expect(res.headers.etag).toBe('"v1"');
    const connection = res.body as Record<string, unknown>;
    expect(connection).toMatchObject({ integration_id: integration.integration_id, connector_id: integration.connector_id, connector_version: integration.version, status: 'unknown', last_run_at: null, tenant_id: tenant.tenantId, workspace_id: tenant.workspaceId, schedule });
    expect(connection).not.toHaveProperty('configuration');
    expect(connection).not.toHaveProperty('configuration_encrypted');

    const secretValues = Object.values(body.configuration!).filter((v): v is string => typeof v === 'string' && v.length >= 8);
    const stored = await host.deps.table.get<Record<string, unknown>>(keys.connection(tenant.tenantId, tenant.workspaceId, connection.connection_id as string));
    expect(stored).toMatchObject({ configuration_kms_key_id: (await envelopeOf(host.deps)).keyId, configuration_schema_version: expect.any(Number) });
    // Nothing in the whole table, audit events included, holds a secret value in plaintext.
    const everything = JSON.stringify((await host.documents.send(new ScanCommand({ TableName: host.config.tableName }))).Items);
    const secretFields = Object.entries(integration.configuration_schema as unknown as { properties: Record<string, { writeOnly?: boolean }> }).length ? (integration.configuration_schema as unknown as { properties: Record<string, { writeOnly?: boolean }> }).properties : {};
    for (const [field, spec] of Object.entries(secretFields)) {
      const value = body.configuration![field];
      if (spec.writeOnly && typeof value === 'string') expect(everything).not.toContain(value);
    }
    expect(secretValues.length).toBeGreaterThan(0);

    const audit = await http.request('GET', `/v1/audit-events?action=connection_created&target_id=${connection.connection_id as string}`, { token: tokens.viewer });
    expect((audit.body as { audit_events: unknown[] }).audit_events).toEqual([
      expect.objectContaining({ action: 'connection_created', target_type: 'connection', target_id: connection.connection_id, actor_id: expect.stringMatching(/^usr_/) }),
    ]);
  });

  it('refuses bad input and writes nothing', async () => {
    const integration = catalog[0]!;
    const good = createBody(integration);
    const cases: [string, unknown][] = [
      ['bad schedule hour', { ...good, schedule: { type: 'daily', hour: 24, minute: 0 } }],
      ['bad schedule type', { ...good, schedule: { type: 'hourly', hour: 1, minute: 0 } }],
      ['unknown integration', { ...good, integration_id: 'int_nope' }],
      ['scope not matching', { ...good, scope: { something: ['else'] } }],
      ['configuration not matching', { ...good, configuration: { nope: true } }],
      ['unknown field', { ...good, owner: 'me' }],
      ['long name', { ...good, name: 'x'.repeat(129) }],
      ['empty name', { ...good, name: '' }],
      ['missing configuration', { ...good, configuration: undefined }],
    ];
    const before = await countWrites();
    for (const [label, body] of cases) {
      const res = await create(tokens.admin, body as Record<string, unknown>);
      expect(res.status, label).toBe(400);
      expect(res.body, label).toMatchObject({ code: 'validation_failed' });
      // Secret values are never echoed back in an error.
      for (const value of Object.values(integration.configuration_schema.examples[0]!)) if (typeof value === 'string' && value.length > 8) expect(res.text).not.toContain(value);
    }
    expect((await http.request('POST', '/v1/connections', { token: tokens.admin, rawBody: '{"name":', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect(await countWrites()).toBe(before);
  });
});

describe('update and delete', () => {
  it('PATCH keeps the configuration when omitted, replaces it when given, audits field names only', async () => {
    const c = await createOk();
    const before = await host.deps.table.get<{ configuration_encrypted: string }>(keys.connection(tenant.tenantId, tenant.workspaceId, c.connection_id));
    const renamed = await http.request('PATCH', `/v1/connections/${c.connection_id}`, { token: tokens.admin, body: { name: 'renamed', schedule: { type: 'daily', hour: 1, minute: 0 } } });
    expect(renamed.status).toBe(200);
    expect(renamed.headers.etag).toBe('"v2"');
    const same = await host.deps.table.get<{ configuration_encrypted: string }>(keys.connection(tenant.tenantId, tenant.workspaceId, c.connection_id));
    expect(same?.configuration_encrypted).toBe(before?.configuration_encrypted);

    const replaced = await http.request('PATCH', `/v1/connections/${c.connection_id}`, { token: tokens.admin, body: { configuration: catalog[0]!.configuration_schema.examples[0] } });
    expect(replaced.status).toBe(200);
    const after = await host.deps.table.get<{ configuration_encrypted: string }>(keys.connection(tenant.tenantId, tenant.workspaceId, c.connection_id));
    expect(after?.configuration_encrypted).not.toBe(before?.configuration_encrypted);

    const events = (await http.request('GET', `/v1/audit-events?action=connection_edited&target_id=${c.connection_id}`, { token: tokens.admin })).body as { audit_events: { payload: { fields: string[] } }[] };
    expect(events.audit_events.map((e) => e.payload.fields)).toEqual([['configuration'], ['name', 'schedule']]);
    expect((await http.request('PATCH', `/v1/connections/${c.connection_id}`, { token: tokens.admin, body: { integration_id: catalog[1]!.integration_id } })).status).toBe(400);
    expect((await http.request('PATCH', `/v1/connections/${c.connection_id}`, { token: tokens.admin, body: {} })).status).toBe(400);
  });

  it('If-Match: a stale ETag is refused with 412, the current one accepted', async () => {
    const c = await createOk();
    const get = await http.request('GET', `/v1/connections/${c.connection_id}`, { token: tokens.admin });
    const etag = get.headers.etag!;
    expect((await http.request('PATCH', `/v1/connections/${c.connection_id}`, { token: tokens.admin, body: { name: 'first' }, headers: { 'if-match': etag } })).status).toBe(200);
    const stale = await http.request('PATCH', `/v1/connections/${c.connection_id}`, { token: tokens.admin, body: { name: 'second' }, headers: { 'if-match': etag } });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ code: 'precondition_failed', detail: 'The connection has changed since you read it (If-Match is not its current ETag); read it again' });
    expect((await http.request('DELETE', `/v1/connections/${c.connection_id}`, { token: tokens.admin, headers: { 'if-match': etag } })).status).toBe(412);
    const current = (await http.request('GET', `/v1/connections/${c.connection_id}`, { token: tokens.admin })).headers.etag!;
    expect((await http.request('DELETE', `/v1/connections/${c.connection_id}`, { token: tokens.admin, headers: { 'if-match': current } })).status).toBe(204);
    expect((await http.request('GET', `/v1/connections/${c.connection_id}`, { token: tokens.admin })).status).toBe(404);
  });

  it('PATCH scope: refused when invalid (nothing written), a change makes health unknown again, the same values change nothing', async () => {
    const aws = catalog.find((i) => i.integration_id === 'int_aws_iam_discovery')!;
    const c = await createOk(tokens.admin, aws);
    const path = `/v1/connections/${c.connection_id}`;
    // An unreachable provider: the test leaves the connection degraded.
    expect((await http.request('POST', `${path}/test`, { token: tokens.admin })).status).toBe(200);
    expect((await http.request('GET', path, { token: tokens.admin })).body).toMatchObject({ status: 'degraded' });

    const before = await countWrites();
    const bad = await http.request('PATCH', path, { token: tokens.admin, body: { scope: { account_ids: ['123'] } } });
    expect(bad.status).toBe(400);
    expect((bad.body as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual(['scope.account_ids.0']);
    expect(await countWrites()).toBe(before);

    // The same name, scope and schedule (its time zone implied): a new version, no field changed, health kept.
    const same = await http.request('PATCH', path, { token: tokens.admin, body: { name: c.name, scope: c.scope, schedule }, headers: { 'if-match': '*' } });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ status: 'degraded' });
    const changed = await http.request('PATCH', path, { token: tokens.admin, body: { scope: { account_ids: ['210987654321'] } } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ status: 'unknown', scope: { account_ids: ['210987654321'] } });
    const events = (await http.request('GET', `/v1/audit-events?action=connection_edited&target_id=${c.connection_id}`, { token: tokens.admin })).body as { audit_events: { payload: { fields: string[] } }[] };
    expect(events.audit_events.map((e) => e.payload.fields)).toEqual([['scope'], []]);
    expect((await http.request('DELETE', path, { token: tokens.admin, headers: { 'if-match': '*' } })).status).toBe(204);
  });

  it('parallel edits of different fields never lose an update', async () => {
    const c = await createOk();
    const results = await Promise.all([
      http.request('PATCH', `/v1/connections/${c.connection_id}`, { token: tokens.admin, body: { name: 'parallel name' } }),
      http.request('PATCH', `/v1/connections/${c.connection_id}`, { token: tokens.connector_builder, body: { schedule: { type: 'daily', hour: 22, minute: 30 } } }),
      http.request('PATCH', `/v1/connections/${c.connection_id}`, { token: tokens.admin, body: { configuration: catalog[0]!.configuration_schema.examples[0] } }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    const final = (await http.request('GET', `/v1/connections/${c.connection_id}`, { token: tokens.admin })).body as Connection;
    expect(final).toMatchObject({ name: 'parallel name', schedule: { type: 'daily', hour: 22, minute: 30 } });
    expect((await http.request('GET', `/v1/connections/${c.connection_id}`, { token: tokens.admin })).headers.etag).toBe('"v4"');
  });
});

describe('test operation', () => {
  it('an unreachable provider is a failure with a connectivity remediation, the status degraded, and audited', async () => {
    const c = await createOk(tokens.connector_builder);
    const res = await http.request('POST', `/v1/connections/${c.connection_id}/test`, { token: tokens.connector_builder });
    expect(res.status).toBe(200);
    const result = res.body as { test_id: string; status: string; checked_at: string; remediation: { category: string }[] };
    expect(result.status).toBe('failure');
    expect(result.remediation.map((r) => r.category)).toContain('connectivity');
    expect((await http.request('GET', `/v1/connections/${c.connection_id}`, { token: tokens.viewer })).body).toMatchObject({ status: 'degraded' });
    const history = (await http.request('GET', `/v1/connections/${c.connection_id}/tests`, { token: tokens.viewer })).body as { tests: { test_id: string }[] };
    expect(history.tests.map((t) => t.test_id)).toEqual([result.test_id]);
    const audit = (await http.request('GET', `/v1/audit-events?action=connection_tested&target_id=${c.connection_id}`, { token: tokens.viewer })).body as { audit_events: { payload: Record<string, unknown> }[] };
    expect(audit.audit_events[0]?.payload).toMatchObject({ test_id: result.test_id, status: 'failure' });
  });

  it('a ciphertext copied to another workspace\'s connection does not decrypt there', async () => {
    const mine = await createOk();
    const theirs = await createOk(tokens.otherWorkspace);
    const source = await host.deps.table.get<{ configuration_encrypted: string }>(keys.connection(tenant.tenantId, tenant.workspaceId, mine.connection_id));
    await host.deps.table.update({
      Key: keys.connection(tenant.tenantId, otherWorkspaceId, theirs.connection_id),
      UpdateExpression: 'SET configuration_encrypted = :c',
      ExpressionAttributeValues: { ':c': source!.configuration_encrypted },
    });
    await expect((await envelopeOf(host.deps)).decrypt(source!.configuration_encrypted, { tenant_id: tenant.tenantId, workspace_id: otherWorkspaceId, connection_id: theirs.connection_id })).rejects.toThrow();
    const res = await http.request('POST', `/v1/connections/${theirs.connection_id}/test`, { token: tokens.otherWorkspace });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'failure', remediation: [{ category: 'configuration' }] });
  });
});

describe('lists', () => {
  it('paginate with a cursor bound to the workspace, and filter by integration', async () => {
    for (let i = 0; i < 3; i++) await createOk(tokens.admin, catalog[2]);
    const first = (await http.request('GET', '/v1/connections?limit=2', { token: tokens.admin })).body as { connections: Connection[]; next_cursor: string };
    expect(first.connections).toHaveLength(2);
    const second = (await http.request('GET', `/v1/connections?limit=2&cursor=${first.next_cursor}`, { token: tokens.admin })).body as { connections: Connection[] };
    // Three were just made, so the second page has at least one, and none of the first.
    expect(second.connections.length).toBeGreaterThan(0);
    const firstIds = first.connections.map((c) => c.connection_id);
    expect(second.connections.filter((c) => firstIds.includes(c.connection_id))).toEqual([]);
    expect((await http.request('GET', `/v1/connections?limit=2&cursor=${first.next_cursor}`, { token: tokens.otherWorkspace })).status).toBe(400);
    const filtered = (await http.request('GET', `/v1/connections?limit=100&integration_id=${catalog[2]!.integration_id}`, { token: tokens.admin })).body as { connections: { integration_id: string }[] };
    expect(filtered.connections.length).toBeGreaterThanOrEqual(3);
    expect(new Set(filtered.connections.map((c) => c.integration_id))).toEqual(new Set([catalog[2]!.integration_id]));
    expect((await http.request('GET', '/v1/connections?limit=500', { token: tokens.admin })).status).toBe(400);
    expect((await http.request('GET', '/v1/connections?sort=name', { token: tokens.admin })).status).toBe(400);
  });
});

describe('Idempotency-Key', () => {
  it('a retry answers the first result and creates nothing; another body is 422', async () => {
    const body = createBody(catalog[0]!, 'idempotent');
    const key = `key-${Date.now()}`;
    const first = await create(tokens.admin, body, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    const writes = await countWrites();
    const retry = await create(tokens.admin, body, { 'idempotency-key': key });
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(await countWrites()).toBe(writes);
    const different = await create(tokens.admin, { ...body, name: 'other' }, { 'idempotency-key': key });
    expect(different.status).toBe(422);
  });

  it('parallel requests with one key create exactly one connection', async () => {
    const body = createBody(catalog[1]!, 'parallel-idempotent');
    const key = `parallel-${Date.now()}`;
    const results = await Promise.all(Array.from({ length: 5 }, () => create(tokens.admin, body, { 'idempotency-key': key })));
    const created = results.filter((r) => r.status === 201).map((r) => (r.body as Connection).connection_id);
    expect(new Set(created).size).toBe(1);
    expect(results.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    const list = (await http.request('GET', '/v1/connections?limit=100', { token: tokens.admin })).body as { connections: Connection[] };
    expect(list.connections.filter((c) => c.name === 'parallel-idempotent')).toHaveLength(1);
  });

  it('refuses a malformed key before anything happens, naming the header', async () => {
    for (const key of ['has space', 'x'.repeat(256)]) {
      const res = await create(tokens.admin, createBody(catalog[0]!, `bad-key-${key.length}`), { 'idempotency-key': key });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ errors: [{ path: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' }] });
    }
    const list = (await http.request('GET', '/v1/connections?limit=100', { token: tokens.admin })).body as { connections: { name: string }[] };
    expect(list.connections.filter((c) => c.name.startsWith('bad-key-'))).toEqual([]);
  });

  it('a failed request frees its key for a corrected retry', async () => {
    const key = `fix-${Date.now()}`;
    // The body passes request validation (any JSON object is a configuration there); the
    // integration's own configuration schema refuses it inside the claimed work, after the key
    // was taken. So the 400 comes from the work and the key must be given back.
    const integration = catalog[0]!;
    const bad = await create(tokens.admin, { ...createBody(integration), configuration: { unexpected: true } }, { 'idempotency-key': key });
    expect(bad.status, JSON.stringify(bad.body)).toBe(400);
    expect((bad.body as { errors: { path: string }[] }).errors.map((e) => e.path.split('.')[0])).toContain('configuration');
    // The corrected body is another body; since the failed attempt wrote nothing, the key is
    // free again (a key still held would answer 422: this key was used with another body).
    const fixed = await create(tokens.admin, createBody(integration, 'fixed'), { 'idempotency-key': key });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(201);
    // And it is held by the corrected request now: the same body again is a replay of it.
    const replay = await create(tokens.admin, createBody(integration, 'fixed'), { 'idempotency-key': key });
    expect(replay.status).toBe(201);
    expect((replay.body as Connection).connection_id).toBe((fixed.body as Connection).connection_id);
  });
});
