/**
 * API.md, Conventions: a body sent with a Content-Type other than `application/json` (or a
 * `+json` type) answers 415 `unsupported_media_type`, and nothing is written. A body with no
 * Content-Type at all is refused the same way (json-body.ts says why); a request without a
 * body needs none. The SAML callback's form post is the exception (sso tests).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login, PASSWORD, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
let token: string;

beforeAll(async () => {
  host = await startTestHost({ clock });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  token = (await login(http, clock, tenant.admin.email)).accessToken;
});
afterAll(() => host?.close());

const workspaceNames = async () => ((await http.request('GET', '/v1/workspaces', { token })).body as { workspaces: { name: string }[] }).workspaces.map((w) => w.name);

function expect415(res: { status: number; headers: Record<string, string>; body: unknown }, what: string) {
  expect(res.status, what).toBe(415);
  expect(res.headers['content-type'], what).toContain('application/problem+json');
  expect(res.headers.accept, what).toBe('application/json');
  expect(res.body, what).toMatchObject({ code: 'unsupported_media_type', status: 415, title: 'Unsupported media type' });
}

describe('request bodies must be JSON', () => {
  it('refuses a JSON body labelled text/plain, as a form, as XML or with no type, and writes nothing', async () => {
    const before = await workspaceNames();
    const json = JSON.stringify({ name: 'Smuggled' });
    for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/jsonp', 'application/json-seq']) {
      expect415(await http.request('POST', '/v1/workspaces', { token, rawBody: json, headers: { 'content-type': type } }), type);
    }
    // Bytes, so that fetch adds no Content-Type of its own.
    expect415(await http.request('POST', '/v1/workspaces', { token, rawBody: new TextEncoder().encode(json) }), 'no content-type');
    expect(await workspaceNames()).toEqual(before);
  });

  it('refuses a sign-in posted as text/plain (a cross-site "simple" request) before any password is checked', async () => {
    const res = await http.request('POST', '/v1/auth/login', { rawBody: JSON.stringify({ email: tenant.admin.email, password: PASSWORD }), headers: { 'content-type': 'text/plain' } });
    expect415(res, 'login');
  });

  it('refuses a non-JSON body on a route that reads none, and does nothing', async () => {
    const created = await http.request('POST', '/v1/tokens', { token, body: { name: 'kept', scopes: ['users:read'] } });
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    expect415(await http.request('DELETE', `/v1/tokens/${id}`, { token, rawBody: 'please', headers: { 'content-type': 'text/plain' } }), 'DELETE with a text body');
    const listed = (await http.request('GET', '/v1/tokens', { token })).body as { tokens: { id: string; revoked_at?: string | null }[] };
    expect(listed.tokens.find((t) => t.id === id)?.revoked_at ?? null).toBeNull();
  });

  it('takes application/json with parameters, any +json type, and no type when there is no body', async () => {
    const ok = await http.request('POST', '/v1/workspaces', { token, rawBody: JSON.stringify({ name: 'Charset' }), headers: { 'content-type': 'Application/JSON; charset=utf-8' } });
    expect(ok.status, ok.text).toBe(201);
    const vendor = await http.request('POST', '/v1/workspaces', { token, rawBody: JSON.stringify({ name: 'Vendor' }), headers: { 'content-type': 'application/vnd.tessera.workspace+json' } });
    expect(vendor.status, vendor.text).toBe(201);
    const created = await http.request('POST', '/v1/tokens', { token, body: { name: 'to rotate', scopes: ['users:read'] } });
    const rotated = await http.request('POST', `/v1/tokens/${(created.body as { id: string }).id}/rotate`, { token });
    expect(rotated.status, rotated.text).toBe(201);
    // An empty body with a type is no body either.
    const revoked = await http.request('DELETE', `/v1/tokens/${(rotated.body as { id: string }).id}`, { token, rawBody: '', headers: { 'content-type': 'text/plain' } });
    expect(revoked.status, revoked.text).toBe(204);
    expect(await workspaceNames()).toEqual(expect.arrayContaining(['Charset', 'Vendor']));
  });

  it('is checked after the credential, as validation is (API.md: the order of checks)', async () => {
    const res = await http.request('POST', '/v1/workspaces', { rawBody: '{}', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(401);
  });
});
