/**
 * The tenant's identity audit log (`GET /v1/tenants/{id}/audit-events`): tenant admins read
 * every identity event with its source address, filtered by action, actor and time; nobody
 * else reads it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, login, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

interface Event { event_id: string; action: string; actor_id: string | null; target_id: string; source_ip: string | null; created_at: string }

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
let adminToken: string;
let viewerId: string;
let viewerToken: string;

const path = () => `/v1/tenants/${tenant.tenantId}/audit-events`;

async function all(query = ''): Promise<Event[]> {
  const events: Event[] = [];
  let cursor: string | null = null;
  do {
    const res = await http.request('GET', `${path()}?limit=2${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token: adminToken });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const body = res.body as { audit_events: Event[]; next_cursor: string | null };
    events.push(...body.audit_events);
    cursor = body.next_cursor;
  } while (cursor);
  return events;
}

beforeAll(async () => {
  host = await startTestHost({ clock });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
  viewerId = await createUser(http, adminToken, { email: `viewer@${tenant.domain}`, role: 'viewer' });
  viewerToken = (await login(http, clock, `viewer@${tenant.domain}`)).accessToken;
  expect((await http.request('POST', '/v1/auth/login', { body: { email: `viewer@${tenant.domain}`, password: 'not the password at all' } })).status).toBe(401);
});
afterAll(() => host?.close());

describe('tenant identity audit log', () => {
  it('holds every identity event, newest first, with its source address, page by page', async () => {
    const events = await all();
    const actions = events.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['login_succeeded', 'login_failed', 'user_created']));
    const failed = events.find((e) => e.action === 'login_failed')!;
    expect(failed).toMatchObject({ target_id: viewerId, source_ip: expect.any(String) });
    // Newest first, and the small pages together are the whole log, each event once.
    expect(events.map((e) => e.created_at)).toEqual([...events.map((e) => e.created_at)].sort().reverse());
    const whole = (await http.request('GET', `${path()}?limit=100`, { token: adminToken })).body as { audit_events: Event[] };
    expect(events.map((e) => e.event_id)).toEqual(whole.audit_events.map((e) => e.event_id));
    expect(new Set(events.map((e) => e.event_id)).size).toBe(events.length);
  });

  it('filters by action, actor and time', async () => {
    const failures = await all('&action=login_failed');
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.map((e) => e.action)).toEqual(failures.map(() => 'login_failed'));
    const byViewer = await all(`&actor_id=${viewerId}`);
    expect(byViewer.length).toBeGreaterThan(0);
    expect(byViewer.map((e) => e.actor_id)).toEqual(byViewer.map(() => viewerId));

    clock.advance(3600);
    const cut = clock.now().toISOString();
    clock.advance(1);
    // An hour on, both sign in again (their access tokens are long gone).
    adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
    viewerToken = (await login(http, clock, `viewer@${tenant.domain}`)).accessToken;
    const later = await all(`&since=${encodeURIComponent(cut)}`);
    expect(later.map((e) => `${e.action} ${e.actor_id}`).sort()).toEqual([`login_succeeded ${tenant.admin.id}`, `login_succeeded ${viewerId}`].sort());
    const earlier = await all(`&until=${encodeURIComponent(cut)}`);
    expect(earlier.length).toBeGreaterThan(2);
    expect(earlier.every((e) => e.created_at < cut)).toBe(true);
    // An offset is the same instant as its UTC form.
    const shifted = new Date(Date.parse(cut) + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    expect((await all(`&since=${encodeURIComponent(shifted)}`)).map((e) => e.event_id)).toEqual(later.map((e) => e.event_id));
  });

  it('is for the tenant admins of that tenant only; bad filters are 400', async () => {
    const viewer = await http.request('GET', path(), { token: viewerToken });
    expect(viewer.status).toBe(403);
    const other = await createTestTenant(host.deps, { mfaMode: 'OFF' });
    const otherAdmin = (await login(http, clock, other.admin.email)).accessToken;
    const across = await http.request('GET', path(), { token: otherAdmin });
    expect(across.status).toBe(403);
    expect(across.body).toMatchObject({ code: 'forbidden' });
    const now = clock.now().toISOString();
    const cases: [string, string][] = [
      [`?since=${encodeURIComponent(now)}&until=${encodeURIComponent(now)}`, 'until'],
      ['?since=yesterday', 'since'],
      ['?actor_id=admin', 'actor_id'],
      ['?limit=0', 'limit'],
    ];
    for (const [query, field] of cases) {
      const res = await http.request('GET', `${path()}${query}`, { token: adminToken });
      expect(res.status, query).toBe(400);
      expect((res.body as { errors: { path: string }[] }).errors.map((e) => e.path), query).toContain(field);
    }
  });
});
