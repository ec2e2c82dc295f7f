import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../infra/local/server';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

let host: TestHost;
let client: HttpClient;

beforeAll(async () => {
  host = await startTestHost();
  client = api(host.url);
});
afterAll(() => host?.close());

describe('local host', () => {
  // What no route takes is answered by the $default route's function, as in AWS: an endpoint's
  // headers, not a bare answer of the host's own.
  it('answers an unknown path with 404 problem+json', async () => {
    const res = await client.request('GET', '/v1/nowhere');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(res.body).toMatchObject({ status: 404, code: 'not_found', detail: 'No route matches /v1/nowhere', request_id: res.headers['apigw-requestid'] });
    expect(res.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'cache-control': 'no-store', 'x-request-id': res.headers['apigw-requestid'] });
  });

  it('answers a write to an unknown path with 404 too, whatever its body', async () => {
    const res = await client.request('POST', '/v1/nowhere/at/all', { body: { anything: 'x'.repeat(100_000) } });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'not_found' });
  });

  // API.md, Conventions: paths match exactly, case included, as API Gateway matches them. Sent
  // with node:http, which sends the path as written (fetch would tidy some of these up first),
  // and with a valid credential, so that only the path can be what refuses them.
  it('matches paths exactly: another case, a doubled or trailing slash is a 404 problem+json, never the route', async () => {
    const tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
    const { accessToken } = await login(client, new MovableClock(), tenant.admin.email);
    const get = (path: string) =>
      new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
        const url = new URL(host.url);
        const req = http.request({ host: url.hostname, port: url.port, path, method: 'GET', headers: { authorization: `Bearer ${accessToken}` } }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] ?? '', body }));
        });
        req.on('error', reject);
        req.end();
      });
    expect((await get('/v1/me')).status, 'the route itself').toBe(200);
    for (const path of ['/V1/me', '//v1/me', '/v1//me', '/v1/me/', '/v1/ME', '/V1/ME']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.type, path).toBe('application/problem+json');
      expect(JSON.parse(res.body), path).toMatchObject({ code: 'not_found', detail: `No route matches ${path}` });
    }
  });

  it('answers a known path with another method with 405 and allow', async () => {
    const res = await client.request('DELETE', '/v1/users');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, POST');
    expect(res.body).toMatchObject({ code: 'method_not_allowed' });
  });

  it('serves GET /v1/health from the real handler', async () => {
    const res = await client.request('GET', '/v1/health');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('marks every answer nosniff, unframeable and inert: JSON, problem, JWKS, the OpenAPI document', async () => {
    for (const path of ['/v1/health', '/v1/nowhere', '/v1/.well-known/jwks.json', '/v1/openapi.json']) {
      const res = await client.request('GET', path);
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
      expect(res.headers['content-security-policy'], path).toContain("frame-ancestors 'none'");
      expect(res.headers['content-security-policy'], path).toContain("default-src 'none'");
    }
  });

  it('answers oversized headers and unparseable requests with problem+json, not a bare status line', async () => {
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const url = new URL(host.url);
        const socket = net.connect(Number(url.port), url.hostname, () => socket.end(request));
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
    const oversized = await raw(`GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(oversized).toMatch(/^HTTP\/1\.1 431 /);
    expect(oversized).toMatch(/content-type: application\/problem\+json/i);
    expect(oversized).toMatch(/x-content-type-options: nosniff/i);
    expect(JSON.parse(oversized.slice(oversized.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 431, code: 'headers_too_large' });
    const garbage = await raw('NOT HTTP AT ALL\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(garbage.slice(garbage.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 400, code: 'validation_failed' });
  });

  it('refuses a body over 1 MiB with 413 before any handler runs', async () => {
    const res = await client.request('POST', '/v1/auth/login', { rawBody: 'x'.repeat(MAX_BODY_BYTES + 1), headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'payload_too_large' });
  });

  it('refuses an oversized chunked body (no content-length) the same way', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${host.url}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      const chunk = Buffer.alloc(64 * 1024, 0x78);
      for (let sent = 0; sent <= MAX_BODY_BYTES; sent += chunk.length) req.write(chunk);
      req.end();
    });
    expect(status).toBe(413);
  });
});
