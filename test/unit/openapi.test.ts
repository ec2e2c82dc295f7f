import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { routes } from '../../functions/routes';
import { defineRoute } from '../../shared/http/route';
import { buildOpenApiDocument } from '../../shared/openapi/openapi-document';

interface Operation {
  operationId: string;
  security: unknown[];
  parameters: { name: string; in: string; required: boolean }[];
  requestBody?: { required: boolean; content: Record<string, { examples?: Record<string, { value: unknown }> }> };
  responses: Record<string, { headers?: Record<string, { required: boolean }>; content?: Record<string, unknown> }>;
}
interface Doc {
  openapi: string;
  info: { license?: unknown };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}

const doc = buildOpenApiDocument(routes, 'https://api.example') as unknown as Doc;
const operation = (method: string, path: string) => doc.paths[path]![method]!;

/** Every `$ref` of the document, with where it sits. */
function refsOf(value: unknown, at = '#'): { at: string; ref: string }[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => refsOf(v, `${at}/${i}`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => (k === '$ref' && typeof v === 'string' ? [{ at, ref: v }] : refsOf(v, `${at}/${k}`)));
}

function resolve(pointer: string): unknown {
  return pointer
    .slice(2)
    .split('/')
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), doc);
}

describe('OpenAPI document', () => {
  it('builds from the route table: one operation per entry, named by its key, 3.1', () => {
    expect(doc.openapi).toBe('3.1.0');
    const operations = Object.values(doc.paths).flatMap((p) => Object.values(p));
    expect(operations).toHaveLength(Object.keys(routes).length);
    for (const [name, route] of Object.entries(routes)) expect(doc.paths[route.path]?.[route.method.toLowerCase()]?.operationId).toBe(name);
    expect(doc.info.license).toMatchObject({ name: expect.any(String) });
  });

  it('resolves every reference at the document root (named schemas live in components.schemas)', () => {
    const refs = refsOf(doc);
    expect(refs.length).toBeGreaterThan(20);
    const dangling = refs.filter(({ ref }) => !ref.startsWith('#/') || resolve(ref) === undefined);
    expect(dangling).toEqual([]);
    expect(JSON.stringify(doc)).not.toContain('$defs');
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['Problem', 'Connection', 'TokenResponse', 'JsonWebKeySet']));
  });

  it('refuses two different schemas under one name rather than publish one of them', () => {
    const one = z.object({ a: z.string() }).register(z.globalRegistry, { id: 'Clash' });
    const other = z.object({ b: z.number() }).register(z.globalRegistry, { id: 'Clash' });
    const table = {
      first: defineRoute({ method: 'GET', path: '/a', handler: 'a', auth: 'public', tag: 't', summary: 's', responses: { 200: { description: 'd', schema: one } } }),
      second: defineRoute({ method: 'GET', path: '/b', handler: 'b', auth: 'public', tag: 't', summary: 's', responses: { 200: { description: 'd', schema: other } } }),
    };
    expect(() => buildOpenApiDocument(table, 'https://api.example')).toThrow(/Two different schemas are named Clash/);
  });

  it('marks public, bearer and optional-bearer routes', () => {
    expect(operation('get', '/v1/health').security).toEqual([]);
    expect(operation('get', '/v1/me').security).toEqual([{ bearer: [] }]);
    expect(operation('post', '/v1/mfa/enroll/start').security).toEqual([{ bearer: [] }, {}]);
  });

  it('documents in the 403 what a personal access token may not do: a whole route, or some body fields of one', () => {
    const forbidden = (method: string, path: string) => (operation(method, path).responses['403'] as { description: string }).description;
    expect(forbidden('post', '/v1/tokens')).toMatch(/personal access token, which never manages credentials/);
    expect(forbidden('post', '/v1/users')).toMatch(/personal access token and the body sets any of password, tenant_admin: true/);
    expect(forbidden('patch', '/v1/users/{id}')).toMatch(/personal access token and the body sets any of email, tenant_admin/);
    expect(forbidden('get', '/v1/users')).not.toMatch(/personal access token/);
  });

  it('requires a body only where an empty one is refused', () => {
    // The credential may come as the bearer, so enroll/start needs no body at all.
    expect(operation('post', '/v1/mfa/enroll/start').requestBody?.required).toBe(false);
    expect(operation('post', '/v1/connections').requestBody?.required).toBe(true);
    expect(operation('patch', '/v1/tenants/{id}/mfa-policy').requestBody?.required).toBe(true);
  });

  it('documents the headers: If-Match, Idempotency-Key, ETag, Location, Retry-After, WWW-Authenticate', () => {
    for (const method of ['patch', 'delete']) expect(operation(method, '/v1/connections/{id}').parameters).toContainEqual(expect.objectContaining({ name: 'If-Match', in: 'header', required: false }));
    expect(operation('post', '/v1/connections').parameters).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', in: 'header' }));
    expect(operation('get', '/v1/connections/{id}').responses['200']?.headers?.ETag?.required).toBe(true);
    expect(operation('patch', '/v1/connections/{id}').responses['200']?.headers?.ETag?.required).toBe(true);
    expect(operation('get', '/v1/auth/sso/{tenant}/start').responses['302']?.headers?.Location?.required).toBe(true);
    expect(operation('post', '/v1/auth/login').responses['429']?.headers?.['Retry-After']?.required).toBe(true);
    expect(operation('get', '/v1/me').responses['401']?.headers?.['WWW-Authenticate']).toBeDefined();
  });

  it('documents the content of the JWKS and of the SAML metadata', () => {
    expect(Object.keys(operation('get', '/v1/.well-known/jwks.json').responses['200']?.content ?? {})).toEqual(['application/json']);
    expect(Object.keys(operation('get', '/v1/auth/sso/{tenant}/metadata').responses['200']?.content ?? {})).toEqual(['application/samlmetadata+xml']);
  });

  it('offers the examples it is given for a request body', () => {
    const withExamples = buildOpenApiDocument(routes, 'https://api.example', { requestExamples: { connectionsCreate: { one: { summary: 'One', value: { name: 'x' } } } } }) as unknown as Doc;
    expect(withExamples.paths['/v1/connections']!.post!.requestBody?.content['application/json']?.examples).toEqual({ one: { summary: 'One', value: { name: 'x' } } });
  });
});
