/**
 * "No 500 for anything a client can send": every route of the table, called by a tenant admin
 * with junk path parameters, query strings and bodies, answers a 4xx problem (or a success
 * where the junk happens to be harmless), never a 5xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeList } from '../../functions/routes';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
let token: string;

beforeAll(async () => {
  host = await startTestHost({ clock, env: { TESSERA_RATE_AUTH_IP_REQUESTS: '100000', TESSERA_PASSWORD_RESET_RESPONSE_FLOOR_MS: '0' } });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  token = (await login(http, clock, tenant.admin.email)).accessToken;
});
afterAll(() => host?.close());

const junkSegments = ['x', 'ten_' + 'a'.repeat(300), '%00', '..%2F..%2Fetc', '%E2%82', encodeURIComponent('<script>')];
const junkQueries = ['', '?limit=-1', '?limit=abc&cursor=%FF', '?email=%00&redirect_uri=javascript:alert(1)', `?cursor=${'z'.repeat(3000)}`, '?a=1&a=2&__proto__=x'];
const junkBodies: (string | undefined)[] = [
  undefined, '', '{', 'null', '[]', '"text"', '123', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"x":1}}}',
  // Wrong types everywhere, and a number JSON.parse turns into Infinity.
  '{"name":["a"],"email":42,"password":{},"code":null,"scopes":"all","mfa_mode":true,"token":1e309,"configuration":[]}',
  JSON.stringify({ a: 'x'.repeat(70_000) }), '\uFEFF{}', 'SAMLResponse=%%%&RelayState=',
];

function pathWith(template: string, segment: string): string {
  return template.replace(/\{[^}]+\}/g, segment);
}

interface Probe {
  segment: string;
  query: string;
  body?: string | undefined;
  contentType?: string | undefined;
}

/** Each kind of junk on its own (not their product, which would take minutes), the rest valid. */
function probesOf(route: (typeof routeList)[number]): Probe[] {
  const valid = route.path.includes('{tenant}') ? tenant.slug : tenant.tenantId;
  const probes: Probe[] = [];
  if (route.path.includes('{')) for (const segment of junkSegments) probes.push({ segment, query: '' });
  for (const query of junkQueries) probes.push({ segment: valid, query });
  if (route.method !== 'GET') {
    for (const body of junkBodies) {
      for (const contentType of ['application/json', 'application/x-www-form-urlencoded', 'text/plain']) probes.push({ segment: valid, query: '', body, contentType });
    }
  }
  return probes;
}

describe('junk input never makes a 5xx', () => {
  for (const route of routeList) {
    it(`${route.method} ${route.path}`, async () => {
      let n = 0;
      for (const probe of probesOf(route)) {
        const url = `${pathWith(route.path, probe.segment)}${probe.query}`;
        const res = await http.request(route.method, url, {
          token,
          ...(probe.body !== undefined ? { rawBody: probe.body } : {}),
          // Many addresses, so the per-IP limiters of the auth surface do not answer instead.
          headers: { 'content-type': probe.body !== undefined ? probe.contentType : undefined, 'x-forwarded-for': `198.18.${n % 250}.${++n % 250}` },
        });
        const what = `${route.method} ${url} ${probe.contentType ?? ''} ${probe.body?.slice(0, 60) ?? ''} → ${res.status} ${res.text.slice(0, 200)}`;
        expect(res.status, what).toBeLessThan(500);
        if (res.status >= 400) expect(res.headers['content-type'] ?? '', what).toContain('problem+json');
      }
      expect(n).toBeGreaterThan(5);
    });
  }
});

describe('control characters in names', () => {
  it('are refused in every name (400 naming the field) and nothing is written', async () => {
    const names = ['evil\u0000name', 'red \u001b[31malert', 'two\nlines', 'sep\u2028arator'];
    const before = {
      workspaces: (await http.request('GET', '/v1/workspaces', { token })).body as { workspaces: unknown[] },
      tokens: (await http.request('GET', '/v1/tokens', { token })).body as { tokens: unknown[] },
      connections: (await http.request('GET', '/v1/connections', { token })).body as { connections: unknown[] },
    };
    for (const name of names) {
      const attempts: [string, unknown][] = [
        ['/v1/workspaces', { name }],
        ['/v1/tokens', { name, scopes: ['connections:read'] }],
        ['/v1/connections', { integration_id: 'int_okta_discovery', name, scope: {}, configuration: { org_url: 'https://acme.okta.com', api_token: 'x'.repeat(42) } }],
      ];
      for (const [path, body] of attempts) {
        const res = await http.request('POST', path, { token, body });
        expect(res.status, `${path} ${JSON.stringify(name)}`).toBe(400);
        expect((res.body as { errors: { path: string; message: string }[] }).errors).toContainEqual({ path: 'name', message: 'must not contain control characters' });
      }
    }
    expect((await http.request('GET', '/v1/workspaces', { token })).body).toEqual(before.workspaces);
    expect((await http.request('GET', '/v1/tokens', { token })).body).toEqual(before.tokens);
    expect((await http.request('GET', '/v1/connections', { token })).body).toEqual(before.connections);
    // Letters of every script, and emoji, are names like any other.
    const fine = await http.request('POST', '/v1/workspaces', { token, body: { name: 'Équipe 東京 🚀' } });
    expect(fine.status).toBe(201);
  });
});
