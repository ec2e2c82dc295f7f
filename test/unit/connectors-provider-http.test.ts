/**
 * One provider call never throws: an answer (JSON or not, redirects not followed), a timeout
 * through the caller's signal, or an unreachable provider with the socket's reason.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callProvider, stringField } from '../../shared/connectors/provider-http';

let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/json') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"a":{"b":"c"}}');
    if (req.url === '/text') return res.writeHead(200, { 'content-type': 'text/plain' }).end('not json');
    if (req.url === '/redirect') return res.writeHead(302, { location: 'http://127.0.0.1:9/steal' }).end();
    if (req.url === '/echo') return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, accept: req.headers.accept, auth: req.headers.authorization }));
    // /hang: never answers.
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const live = () => new AbortController().signal;

describe('callProvider', () => {
  it('answers JSON parsed, anything else as an undefined body, with the status', async () => {
    expect(await callProvider(`${base}/json`, { signal: live() })).toMatchObject({ kind: 'answer', status: 200, body: { a: { b: 'c' } } });
    expect(await callProvider(`${base}/text`, { signal: live() })).toMatchObject({ kind: 'answer', status: 200, body: undefined });
  });

  it('sends the method, JSON accept and the caller headers', async () => {
    const res = await callProvider(`${base}/echo`, { method: 'POST', body: '{}', headers: { authorization: 'SSWS x' }, signal: live() });
    expect(res).toMatchObject({ kind: 'answer', body: { method: 'POST', accept: 'application/json', auth: 'SSWS x' } });
  });

  it('does not follow a redirect (it would carry the credential elsewhere)', async () => {
    expect(await callProvider(`${base}/redirect`, { signal: live() })).toMatchObject({ kind: 'answer', status: 302 });
  });

  it("a provider that does not answer within the caller's signal is a timeout", async () => {
    const controller = new AbortController();
    const pending = callProvider(`${base}/hang`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toEqual({ kind: 'timeout' });
  });

  it('a closed port is unreachable with its socket code; a scheme fetch refuses, a network error', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await callProvider(`http://127.0.0.1:${port}/`, { signal: live() })).toEqual({ kind: 'unreachable', reason: 'ECONNREFUSED' });
    expect(await callProvider('ftp://127.0.0.1/', { signal: live() })).toEqual({ kind: 'unreachable', reason: 'network error' });
  });
});

describe('stringField', () => {
  it('reads a string at a path of an untrusted body, else undefined', () => {
    expect(stringField({ a: { b: 'c' } }, 'a', 'b')).toBe('c');
    expect(stringField({ a: { b: 1 } }, 'a', 'b')).toBeUndefined();
    expect(stringField({ a: 'x' }, 'a', 'b')).toBeUndefined();
    expect(stringField(null, 'a')).toBeUndefined();
    expect(stringField('top')).toBe('top');
  });
});
