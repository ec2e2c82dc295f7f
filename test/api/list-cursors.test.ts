/**
 * List cursors are opaque and bound to their list: no key or digest can be read from one, and
 * a cursor replayed on another route, by another tenant or workspace, with other filters, or
 * altered is refused (400 on `cursor`), while paging still returns every item exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../shared/crypto/opaque-tokens';
import { keys } from '../../shared/store/keys';
import { api, type HttpClient, type HttpResponse } from '../support/http-client';
import { createTestTenant, createUser, login, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
let adminToken: string;

beforeAll(async () => {
  host = await startTestHost({ clock });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
  for (const n of [1, 2, 3]) await createUser(http, adminToken, { email: `member${n}@${tenant.domain}`, role: 'viewer' });
});
afterAll(() => host?.close());

const get = (path: string, token = adminToken) => http.request('GET', path, { token });
const nextCursorOf = (res: HttpResponse): string => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const cursor = (res.body as { next_cursor: string | null }).next_cursor;
  expect(typeof cursor).toBe('string');
  return cursor!;
};
const withCursor = (path: string, cursor: string) => `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`;

function expectCursorRefused(res: HttpResponse, label: string) {
  expect(res.status, label).toBe(400);
  expect(res.headers['content-type'], label).toMatch(/^application\/problem\+json/);
  expect(res.body, label).toMatchObject({ code: 'validation_failed', errors: [{ path: 'cursor' }] });
}

describe('list cursors', () => {
  it('of the token list carry no digest or key, and page through every token exactly once', async () => {
    const email = `tokens@${tenant.domain}`;
    await createUser(http, adminToken, { email, role: 'admin' });
    const owner = (await login(http, clock, email)).accessToken;
    const made: { id: string; token: string }[] = [];
    for (const n of [1, 2, 3, 4, 5]) {
      const res = await http.request('POST', '/v1/tokens', { token: owner, body: { name: `automation ${n}`, scopes: ['users:read'] } });
      expect(res.status).toBe(201);
      made.push(res.body as { id: string; token: string });
    }

    const seen: string[] = [];
    const cursors: string[] = [];
    const pageSizes: number[] = [];
    let cursor: string | null = null;
    do {
      const res = await get(cursor ? withCursor('/v1/tokens?limit=2', cursor) : '/v1/tokens?limit=2', owner);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const body = res.body as { tokens: { id: string }[]; next_cursor: string | null };
      seen.push(...body.tokens.map((t) => t.id));
      pageSizes.push(body.tokens.length);
      cursor = body.next_cursor;
      if (cursor) cursors.push(cursor);
    } while (cursor);
    expect(pageSizes[1]).toBe(2); // the second page is a real page
    expect(pageSizes.length).toBe(3);
    expect([...seen].sort()).toEqual(made.map((t) => t.id).sort());

    expect(cursors).toHaveLength(2);
    for (const c of cursors) {
      const decoded = Buffer.from(c, 'base64url');
      for (const { id, token } of made) {
        const digest = sha256Hex(token);
        expect(c).not.toContain(digest);
        expect(decoded.toString('latin1')).not.toContain(digest);
        expect(decoded.includes(Buffer.from(digest, 'hex'))).toBe(false);
        expect(decoded.toString('latin1')).not.toContain(id);
      }
      expect(decoded.toString('latin1')).not.toContain(tenant.tenantId);
      expect(decoded.toString('latin1')).not.toMatch(/PAT|USER#|GSI/);
    }
  });

  it('is refused on another route, by another tenant, in another workspace, and with other filters', async () => {
    const users = nextCursorOf(await get('/v1/users?limit=2'));
    // The same list, the page size changed: still the list's cursor.
    expect((await get(withCursor('/v1/users?limit=3', users))).status).toBe(200);

    expectCursorRefused(await get(withCursor('/v1/tokens?limit=2', users)), 'another route');
    expectCursorRefused(await get(withCursor(`/v1/tenants/${tenant.tenantId}/audit-events?limit=2`, users)), 'another route');

    const other = await createTestTenant(host.deps, { mfaMode: 'OFF' });
    const otherToken = (await login(http, clock, other.admin.email)).accessToken;
    expectCursorRefused(await get(withCursor('/v1/users?limit=2', users), otherToken), 'another tenant');

    const workspace = await http.request('POST', '/v1/workspaces', { token: adminToken, body: { name: 'Elsewhere' } });
    expect(workspace.status).toBe(201);
    const elsewhere = (await login(http, clock, tenant.admin.email, undefined, { workspace_id: (workspace.body as { id: string }).id })).accessToken;
    expectCursorRefused(await get(withCursor('/v1/users?limit=2', users), elsewhere), 'another workspace');

    const audit = `/v1/tenants/${tenant.tenantId}/audit-events?limit=1&action=user_created`;
    const filtered = nextCursorOf(await get(audit));
    const sameFilter = await get(withCursor(audit, filtered));
    expect(sameFilter.status).toBe(200);
    expect((sameFilter.body as { audit_events: { action: string }[] }).audit_events).toEqual([expect.objectContaining({ action: 'user_created' })]);
    expectCursorRefused(await get(withCursor(`/v1/tenants/${tenant.tenantId}/audit-events?limit=1&action=login_succeeded`, filtered)), 'another action filter');
    expectCursorRefused(await get(withCursor(`/v1/tenants/${tenant.tenantId}/audit-events?limit=1`, filtered)), 'the filter dropped');
  });

  it('of one list are refused by another list of the same partition (connections → a connection\'s tests and runs)', async () => {
    type Integration = { integration_id: string; configuration_schema: { examples: Record<string, unknown>[] }; scope_schema: { examples: Record<string, unknown>[] } };
    const catalog = ((await get('/v1/integrations')).body as { integrations: Integration[] }).integrations;
    const integration = catalog[0]!;
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const res = await http.request('POST', '/v1/connections', {
        token: adminToken,
        body: { integration_id: integration.integration_id, name: `listed ${n}`, scope: integration.scope_schema.examples[0], schedule: { type: 'daily', hour: 3, minute: 15 }, configuration: integration.configuration_schema.examples[0] },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      ids.push((res.body as { connection_id: string }).connection_id);
    }
    const cursor = nextCursorOf(await get('/v1/connections?limit=2'));
    const rest = await get(withCursor('/v1/connections?limit=2', cursor));
    expect(rest.status).toBe(200);
    expect((rest.body as { connections: unknown[] }).connections).toHaveLength(1);

    expectCursorRefused(await get(withCursor(`/v1/connections/${ids[0]}/tests?limit=2`, cursor)), 'connection tests');
    expectCursorRefused(await get(withCursor(`/v1/connections/${ids[0]}/runs?limit=2`, cursor)), 'connection runs');
    expectCursorRefused(await get(withCursor(`/v1/connections?limit=2&integration_id=${integration.integration_id}`, cursor)), 'a filter added');
  });

  it('is refused when altered, or made by anyone but the service', async () => {
    const users = nextCursorOf(await get('/v1/users?limit=2'));
    const bytes = Buffer.from(users, 'base64url');
    for (const index of [0, 5, bytes.length - 1]) {
      const altered = Buffer.from(bytes);
      altered[index] = altered[index]! ^ 0x01;
      expectCursorRefused(await get(withCursor('/v1/users?limit=2', altered.toString('base64url'))), `byte ${index} altered`);
    }
    expectCursorRefused(await get(withCursor('/v1/users?limit=2', users.slice(0, -4))), 'truncated');
    // A position in the caller's own list, written by hand: the service never follows it.
    const ownList = keys.users(tenant.tenantId);
    const forged = Buffer.from(JSON.stringify({ PK: ownList.PK, SK: `${ownList.SKPrefix}usr_` })).toString('base64url');
    expectCursorRefused(await get(withCursor('/v1/users?limit=2', forged)), 'forged');
  });
});
