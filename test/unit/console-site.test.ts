/**
 * How the local host serves the console beside the API: files of the build with the security
 * headers, index.html for client-side paths (the reset link), and never for the API's paths
 * or for missing files; nothing outside the build directory.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleSite } from '../../infra/local/console-site';
import { startLocalHost, type LocalHost } from '../../infra/local/server';

let dir: string;
let host: LocalHost;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tessera-console-site-'));
  const dist = path.join(dir, 'dist');
  await mkdir(path.join(dist, 'assets'), { recursive: true });
  await mkdir(path.join(dist, '.vite'), { recursive: true });
  await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>console</title>');
  await writeFile(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
  await writeFile(path.join(dist, '.vite', 'manifest.json'), '{}');
  await writeFile(path.join(dir, 'secret.txt'), 'outside the build');
  host = await startLocalHost({ site: consoleSite(dist) });
});
afterAll(async () => {
  await host?.close();
  await rm(dir, { recursive: true, force: true });
});

const get = (p: string, init: RequestInit = {}) => fetch(`${host.url}${p}`, init);

describe('the console on the local host', () => {
  it('answers a client-side path with index.html and a strict CSP', async () => {
    for (const p of ['/', '/reset-password?token=tsr_reset_x', '/connections/conn_1']) {
      const res = await get(p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await res.text()).toContain('<title>console</title>');
      const csp = res.headers.get('content-security-policy')!;
      for (const directive of ["default-src 'self'", "script-src 'self'", "frame-ancestors 'none'", "object-src 'none'"]) expect(csp).toContain(directive);
      expect(csp).not.toContain('unsafe-inline');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('serves hashed assets as immutable, with their content type; HEAD without a body', async () => {
    const res = await get('/assets/index-abc123.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toContain('immutable');
    expect(await res.text()).toBe('console.log(1)');
    const head = await get('/assets/index-abc123.js', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('leaves the API its problem+json 404s, and answers missing files, the manifest and paths outside the build with 404', async () => {
    for (const p of ['/v1/no-such-route', '/v1', '/assets/missing.js', '/.vite/manifest.json', '/%2e%2e/secret.txt', '/..%2fsecret.txt']) {
      const res = await get(p);
      expect(res.status, p).toBe(404);
      expect(res.headers.get('content-type'), p).toBe('application/problem+json');
      expect(await res.text(), p).not.toContain('outside the build');
    }
  });

  it('is only for GET and HEAD', async () => {
    const res = await get('/reset-password', { method: 'POST', body: '{}' });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
  });
});
