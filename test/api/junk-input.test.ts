/**
 * "No 500 for anything a client can send": every route of the table, called by a tenant admin
 * with junk path parameters, query strings and bodies, answers a 4xx problem (or a success
 * where the junk lands somewhere the route does not read), never a 5xx. Path parameters are
 * real ids of the right kind (a workspace, user, token, connection, run of the tenant), so the
 * junk query or body is what the route meets, and the test proves its schema refused it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { routeList } from '../../functions/routes';
import * as validation from '../../shared/schemas/validation';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, login, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

// Every zod parse the host makes (it runs in this process) is recorded with its outcome, so a
// probe can tell whether the route's own body or query schema is what refused it.
vi.mock('../../shared/schemas/validation', async (importOriginal) => {
  const original = await importOriginal<typeof validation>();
  return { ...original, parseWith: vi.fn(original.parseWith) };
});
const parseCalls = () => vi.mocked(validation.parseWith).mock;

// Providers are unreachable here (a closed port): runs and tests fail fast, they still exist.
const NOWHERE = 'http://127.0.0.1:9';
const ENDPOINTS = JSON.stringify({ sts: NOWHERE, iam: NOWHERE, login: NOWHERE, graph: NOWHERE, arm: NOWHERE, okta: NOWHERE });

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
let token: string;
type Integration = { integration_id: string; configuration_schema: { examples: Record<string, unknown>[] }; scope_schema: { examples: Record<string, unknown>[] } };
let integration: Integration;

beforeAll(async () => {
  host = await startTestHost({ clock, env: { TESSERA_RATE_AUTH_IP_REQUESTS: '100000', TESSERA_PASSWORD_RESET_RESPONSE_FLOOR_MS: '0', TESSERA_CONNECTOR_ENDPOINTS: ENDPOINTS, TESSERA_CONNECTOR_TEST_TIMEOUT_MS: '500' } });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  token = (await login(http, clock, tenant.admin.email)).accessToken;
  integration = ((await http.request('GET', '/v1/integrations', { token })).body as { integrations: Integration[] }).integrations[0]!;
});
afterAll(() => host?.close());

async function created(path: string, body: unknown): Promise<Record<string, string>> {
  const res = await http.request('POST', path, { token, body });
  expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body as Record<string, string>;
}

/**
 * Real values for the route's path parameters, made afresh for each route (a DELETE or a
 * disable may use them up): the caller's tenant id or slug, and a new workspace, user, token,
 * connection or run of the tenant.
 */
async function realSegments(route: (typeof routeList)[number]): Promise<Record<string, string>> {
  const values: Record<string, string> = {};
  const p = route.path;
  if (p.includes('{tenant}')) values.tenant = tenant.slug;
  if (p.startsWith('/v1/tenants/{id}')) values.id = tenant.tenantId;
  if (p.startsWith('/v1/workspaces/{id}')) values.id = (await created('/v1/workspaces', { name: `junk ws ${Math.random()}` })).id!;
  if (p.startsWith('/v1/users/{id}')) values.id = await createUser(http, token, { email: `junk${Math.random().toString(36).slice(2, 10)}@${tenant.domain}`, role: 'viewer' });
  if (p.startsWith('/v1/tokens/{id}')) values.id = (await created('/v1/tokens', { name: `junk ${Math.random()}`, scopes: ['users:read'] })).id!;
  if (p.startsWith('/v1/connections/{id}')) {
    values.id = (await created('/v1/connections', {
      integration_id: integration.integration_id, name: `junk ${Math.random().toString(36).slice(2, 8)}`, scope: integration.scope_schema.examples[0],
      schedule: { type: 'daily', hour: 3, minute: 0 }, configuration: integration.configuration_schema.examples[0],
    })).connection_id!;
  }
  // An email domain of the tenant, and a well-formed federated identity id that is no one's.
  if (p.includes('{domain}')) values.domain = tenant.domain;
  if (p.includes('{identity_id}')) values.identity_id = 'ext_00000000000000000000000000';
  // A well-formed entity and person that nobody has (the routes answer 404 for them).
  if (p.includes('{entity_id}')) values.entity_id = 'ent_00000000000000000000000000';
  if (p.includes('{person_id}')) values.person_id = 'per_00000000000000000000000000';
  if (p.includes('{export_id}')) values.export_id = (await created('/v1/exports', { source: 'people', format: 'ndjson' })).export_id!;
  if (p.includes('{run_id}')) values.run_id = (await created(`/v1/connections/${values.id}/runs`, undefined)).run_id!;
  const missing = [...p.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!).filter((name) => values[name] === undefined);
  expect(missing, `a real value for each path parameter of ${route.path}`).toEqual([]);
  return values;
}

const junkSegments = ['x', 'ten_' + 'a'.repeat(300), '%00', '..%2F..%2Fetc', '%E2%82', encodeURIComponent('<script>')];
const junkQueries = ['?limit=-1', '?limit=abc&cursor=%FF', '?email=%00&redirect_uri=javascript:alert(1)', `?cursor=${'z'.repeat(3000)}`, '?a=1&a=2&__proto__=x'];
const junkBodies: (string | undefined)[] = [
  undefined, '', '{', 'null', '[]', '"text"', '123', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"x":1}}}',
  // Wrong types everywhere, and a number JSON.parse turns into Infinity.
  '{"name":["a"],"email":42,"password":{},"code":null,"scopes":"all","mfa_mode":true,"token":1e309,"configuration":[]}',
  JSON.stringify({ a: 'x'.repeat(70_000) }), '\uFEFF{}', 'SAMLResponse=%%%&RelayState=',
];

function pathWith(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => values[name]!);
}

interface Probe {
  /** Which part carries the junk. */
  junk: 'path' | 'query' | 'body';
  segments: Record<string, string>;
  query: string;
  body?: string | undefined;
  contentType?: string | undefined;
}

/** Each kind of junk on its own (not their product, which would take minutes), the rest valid. */
function probesOf(route: (typeof routeList)[number], real: Record<string, string>): Probe[] {
  const probes: Probe[] = [];
  const names = Object.keys(real);
  for (const segment of names.length ? junkSegments : []) probes.push({ junk: 'path', segments: Object.fromEntries(names.map((n) => [n, segment])), query: '' });
  for (const query of junkQueries) probes.push({ junk: 'query', segments: real, query });
  if (route.method !== 'GET') {
    for (const body of junkBodies) {
      for (const contentType of ['application/json', 'application/x-www-form-urlencoded', 'text/plain']) probes.push({ junk: 'body', segments: real, query: '', body, contentType });
    }
  }
  return probes;
}

const routesWithInput = routeList.filter((r) => r.request?.body !== undefined || r.request?.query !== undefined);
const refusedByOwnSchema = new Set<string>();
let probeNumber = 0;

describe('junk input never makes a 5xx', () => {
  for (const route of routeList) {
    it(`${route.method} ${route.path}`, async () => {
      const real = await realSegments(route);
      const probes = probesOf(route, real);
      for (const probe of probes) {
        const url = `${pathWith(route.path, probe.segments)}${probe.query}`;
        parseCalls().calls.length = 0;
        parseCalls().results.length = 0;
        const n = ++probeNumber;
        const res = await http.request(route.method, url, {
          token,
          ...(probe.body !== undefined ? { rawBody: probe.body } : {}),
          // Many addresses, so the per-IP limiters of the auth surface do not answer instead.
          headers: { 'content-type': probe.body !== undefined ? probe.contentType : undefined, 'x-forwarded-for': `198.18.${Math.floor(n / 250) % 250}.${n % 250}` },
        });
        const what = `${route.method} ${url} ${probe.contentType ?? ''} ${probe.body?.slice(0, 60) ?? ''} → ${res.status} ${res.text.slice(0, 200)}`;
        expect(res.status, what).toBeLessThan(500);
        if (res.status >= 400) expect(res.headers['content-type'] ?? '', what).toContain('problem+json');
        // A body that is not labelled JSON is refused as such before anything reads it (the SAML
        // callback's form post aside, which refuses a JSON body as its own 400).
        // A body over 64 KiB is refused for its size first, whatever its type.
        if (probe.body && probe.contentType !== 'application/json' && route.request?.bodyEncoding !== 'form') {
          const tooLarge = Buffer.byteLength(probe.body) > 64 * 1024;
          expect(res.status, what).toBe(tooLarge ? 413 : 415);
          expect(res.body, what).toMatchObject({ code: tooLarge ? 'payload_too_large' : 'unsupported_media_type' });
          continue;
        }
        // Junk in a part the route declares is refused with a 4xx problem; a success only where
        // the route's own schema accepted it (an empty body where every field is optional).
        const declared = probe.junk === 'path' ? route.request?.params : probe.junk === 'query' ? route.request?.query : route.request?.body;
        const outcomes = parseCalls().calls.flatMap((call, i) => (call[0] === declared ? [parseCalls().results[i]?.type] : []));
        const schemaRefused = outcomes.includes('throw');
        if (declared !== undefined && res.status < 400) expect(outcomes, `${what}: a success only for input its schema accepted`).toEqual(['return']);
        if (declared !== undefined && probe.junk !== 'path' && schemaRefused) {
          expect(res.status, what).toBe(400);
          expect(res.body, what).toMatchObject({ code: 'validation_failed' });
          refusedByOwnSchema.add(`${route.method} ${route.path}`);
        }
      }
      if (route.request?.body !== undefined || route.request?.query !== undefined) {
        expect(refusedByOwnSchema, `junk refused by the body or query schema of ${route.method} ${route.path}`).toContain(`${route.method} ${route.path}`);
      }
    });
  }

  it('the junk reached the body or query validation of exactly the routes that have one', () => {
    expect(routesWithInput.length).toBeGreaterThan(0);
    expect([...refusedByOwnSchema].sort()).toEqual(routesWithInput.map((r) => `${r.method} ${r.path}`).sort());
  });
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
