/**
 * The Entra ID client-credentials call against a local token endpoint: a token (with or without
 * a usable expires_in), a refusal named by its AADSTS code, throttling with its Retry-After,
 * odd answers, timeouts and an unreachable endpoint; the secret only in the form body.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestToken } from '../../shared/connectors/azure/token';

let server: http.Server;
let login: string;
const bodies: string[] = [];
const SECRET = 'the-client-secret-value';

const answers: Record<string, [number, Record<string, string>, string]> = {
  'ok-default': [200, { 'content-type': 'application/json' }, JSON.stringify({ access_token: 'tok', expires_in: 'soon' })],
  'ok-expiry': [200, { 'content-type': 'application/json' }, JSON.stringify({ access_token: 'tok', expires_in: 120 })],
  'no-token': [200, { 'content-type': 'application/json' }, JSON.stringify({ token_type: 'Bearer' })],
  refused: [401, { 'content-type': 'application/json' }, JSON.stringify({ error: 'invalid_client', error_description: `AADSTS7000215: Invalid client secret provided. ${SECRET}` })],
  'refused-bare': [400, { 'content-type': 'application/json' }, '{}'],
  throttled: [429, { 'retry-after': '7' }, ''],
  'throttled-date': [429, { 'retry-after': 'Wed, 21 Oct 2026 07:28:00 GMT' }, ''],
  broken: [500, { 'content-type': 'application/json' }, JSON.stringify({ error: { code: 'InternalServerError' } })],
  odd: [503, {}, 'down'],
};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      bodies.push(body);
      const tenant = req.url!.split('/')[1]!;
      const answer = answers[tenant];
      if (!answer) return; // hang
      res.writeHead(answer[0], answer[1]).end(answer[2]);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  login = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const ask = (tenant: string, signal = new AbortController().signal, origin = login) =>
  requestToken({ configuration: { tenant_id: tenant, client_id: 'client-1', client_secret: SECRET }, login: origin, scope: 'https://graph.microsoft.com/.default', signal, elapsed: () => 1234 });

describe('requestToken', () => {
  it('a token, with its lifetime when the endpoint gives a number, else an hour less a second', async () => {
    expect(await ask('ok-expiry')).toEqual({ ok: true, accessToken: 'tok', expiresInSeconds: 120 });
    expect(await ask('ok-default')).toEqual({ ok: true, accessToken: 'tok', expiresInSeconds: 3599 });
    // The secret went in the form body, with the grant and scope.
    const form = new URLSearchParams(bodies.at(-1));
    expect(Object.fromEntries(form)).toEqual({ grant_type: 'client_credentials', client_id: 'client-1', client_secret: SECRET, scope: 'https://graph.microsoft.com/.default' });
  });

  it('a refusal is named by its AADSTS code, and nothing of the answer is copied', async () => {
    const refused = await ask('refused');
    expect(refused.ok).toBe(false);
    expect(JSON.stringify(refused)).not.toContain(SECRET);
    expect(JSON.stringify(refused)).toContain('client-1');
    const bare = await ask('refused-bare');
    expect(bare).toMatchObject({ ok: false, item: { category: expect.any(String) } });
  });

  it('throttling says when to retry (seconds only) and hands Retry-After back', async () => {
    const seconds = await ask('throttled');
    expect(seconds).toMatchObject({ ok: false, retryAfter: '7' });
    expect(JSON.stringify(seconds)).toContain('it asks to retry after 7 s');
    const dated = await ask('throttled-date');
    expect(dated).toMatchObject({ ok: false, retryAfter: 'Wed, 21 Oct 2026 07:28:00 GMT' });
    expect(JSON.stringify(dated)).toContain('retry in a minute');
  });

  it('odd answers name their status and error code, and carry no Retry-After', async () => {
    const broken = await ask('broken');
    expect(JSON.stringify(broken)).toContain('HTTP 500 InternalServerError');
    expect(broken).not.toHaveProperty('retryAfter');
    expect(JSON.stringify(await ask('odd'))).toContain('HTTP 503');
    expect(JSON.stringify(await ask('no-token'))).toContain('HTTP 200');
  });

  it('a silent endpoint is a timeout, a closed one unreachable', async () => {
    const controller = new AbortController();
    const pending = ask('silent', controller.signal);
    setTimeout(() => controller.abort(), 50);
    expect((await pending).ok).toBe(false);
    expect(JSON.stringify(await pending)).toMatch(/did not answer|time/i);
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(JSON.stringify(await ask('x', new AbortController().signal, `http://127.0.0.1:${port}`))).toContain('ECONNREFUSED');
  });
});
