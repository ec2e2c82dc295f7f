import { describe, expect, it } from 'vitest';
import { buildApiGatewayEvent, formatRequestTime, toHttpAnswer, type ReceivedRequest } from '../../infra/local/api-gateway-event';
import { matchRoute } from '../../shared/http/route-match';

const now = new Date('2026-03-12T19:03:58.123Z');

function request(overrides: Partial<ReceivedRequest> = {}): ReceivedRequest {
  return {
    method: 'GET',
    target: '/v1/users/usr_1',
    rawHeaders: ['Host', '127.0.0.1:3000', 'User-Agent', 'test/1.0'],
    body: Buffer.alloc(0),
    sourceIp: '10.0.0.7',
    peerIp: '127.0.0.1',
    localPort: 3000,
    httpVersion: '1.1',
    ...overrides,
  };
}

const meta = { routeKey: 'GET /v1/users/{id}', pathParameters: { id: 'usr_1' }, requestId: 'req-1', now };

describe('matchRoute', () => {
  const routes = [
    { method: 'GET', path: '/v1/users' },
    { method: 'POST', path: '/v1/users' },
    { method: 'GET', path: '/v1/users/{id}' },
    { method: 'GET', path: '/v1/users/me' },
    { method: 'POST', path: '/v1/users/{id}/disable' },
    { method: 'GET', path: '/v1/files/{path+}' },
  ];

  it('fills path parameters, URL-decoded', () => {
    expect(matchRoute(routes, 'GET', '/v1/users/usr%5F1')).toEqual({ kind: 'found', route: routes[2], pathParameters: { id: 'usr_1' } });
    expect(matchRoute(routes, 'POST', '/v1/users/usr_2/disable')).toMatchObject({ pathParameters: { id: 'usr_2' } });
  });

  it('prefers the most specific template, as API Gateway does', () => {
    expect(matchRoute(routes, 'GET', '/v1/users/me')).toMatchObject({ route: routes[3], pathParameters: {} });
  });

  it('matches a greedy parameter across segments', () => {
    expect(matchRoute(routes, 'GET', '/v1/files/a/b.txt')).toMatchObject({ pathParameters: { path: 'a/b.txt' } });
  });

  it('tells an unknown path from a known path with another method', () => {
    expect(matchRoute(routes, 'GET', '/v1/nothing')).toEqual({ kind: 'not_found' });
    expect(matchRoute(routes, 'GET', '/v1/users/usr_1/disable')).toEqual({ kind: 'method_not_allowed', allow: ['POST'] });
    expect(matchRoute(routes, 'DELETE', '/v1/users')).toEqual({ kind: 'method_not_allowed', allow: ['GET', 'POST'] });
  });

  it('does not match an empty parameter, a trailing slash or extra segments', () => {
    expect(matchRoute(routes, 'GET', '/v1/users//disable').kind).toBe('not_found');
    expect(matchRoute(routes, 'GET', '/v1/users/').kind).toBe('not_found');
    expect(matchRoute(routes, 'GET', '/v1/users/usr_1/x/y').kind).toBe('not_found');
  });
});

describe('buildApiGatewayEvent', () => {
  it('has the payload 2.0 shape', () => {
    const event = buildApiGatewayEvent(request(), meta);
    expect(event).toEqual({
      version: '2.0',
      routeKey: 'GET /v1/users/{id}',
      rawPath: '/v1/users/usr_1',
      rawQueryString: '',
      headers: {
        host: '127.0.0.1:3000',
        'user-agent': 'test/1.0',
        'x-forwarded-for': '127.0.0.1',
        'x-forwarded-port': '3000',
        'x-forwarded-proto': 'http',
      },
      requestContext: {
        accountId: '000000000000',
        apiId: 'local',
        domainName: '127.0.0.1:3000',
        domainPrefix: '127',
        http: { method: 'GET', path: '/v1/users/usr_1', protocol: 'HTTP/1.1', sourceIp: '10.0.0.7', userAgent: 'test/1.0' },
        requestId: 'req-1',
        routeKey: 'GET /v1/users/{id}',
        stage: '$default',
        time: '12/Mar/2026:19:03:58 +0000',
        timeEpoch: now.getTime(),
      },
      pathParameters: { id: 'usr_1' },
      isBase64Encoded: false,
    });
  });

  it('keeps the raw query string and decodes parameters, repeats comma-joined', () => {
    const event = buildApiGatewayEvent(request({ target: '/v1/users?limit=5&tag=a&tag=b%20c&q=x+y&flag' }), meta);
    expect(event.rawPath).toBe('/v1/users');
    expect(event.rawQueryString).toBe('limit=5&tag=a&tag=b%20c&q=x+y&flag');
    expect(event.queryStringParameters).toEqual({ limit: '5', tag: 'a,b c', q: 'x y', flag: '' });
  });

  it('lower-cases headers, comma-joins repeats and moves cookies to `cookies`', () => {
    const event = buildApiGatewayEvent(request({
      rawHeaders: ['X-Custom', 'one', 'x-custom', 'two', 'Cookie', 'a=1; b=2', 'cookie', 'c=3', 'Connection', 'keep-alive', 'X-Forwarded-For', '203.0.113.9'],
    }), meta);
    expect(event.headers['x-custom']).toBe('one,two');
    expect(event.cookies).toEqual(['a=1', 'b=2', 'c=3']);
    expect(event.headers).not.toHaveProperty('cookie');
    expect(event.headers).not.toHaveProperty('connection');
    // API Gateway appends the address it saw to an existing X-Forwarded-For.
    expect(event.headers['x-forwarded-for']).toBe('203.0.113.9, 127.0.0.1');
  });

  it('passes JSON and text bodies as strings', () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'text/plain', 'application/xml']) {
      const event = buildApiGatewayEvent(request({ rawHeaders: ['Content-Type', type], body: Buffer.from('{"a":"é"}') }), meta);
      expect(event, type).toMatchObject({ body: '{"a":"é"}', isBase64Encoded: false });
      expect(event.headers['content-length']).toBe(String(Buffer.byteLength('{"a":"é"}')));
    }
  });

  it('base64-encodes every other body, form posts and a missing content type included', () => {
    const bytes = Buffer.from([0xff, 0x00, 0x41]);
    for (const rawHeaders of [['Content-Type', 'application/octet-stream'], ['Content-Type', 'application/x-www-form-urlencoded'], []]) {
      const event = buildApiGatewayEvent(request({ rawHeaders, body: bytes }), meta);
      expect(event).toMatchObject({ body: bytes.toString('base64'), isBase64Encoded: true });
    }
  });

  it('leaves out body, cookies, query and path parameters when there are none', () => {
    const event = buildApiGatewayEvent(request(), { ...meta, pathParameters: {} });
    for (const key of ['body', 'cookies', 'queryStringParameters', 'pathParameters']) expect(event).not.toHaveProperty(key);
  });
});

describe('toHttpAnswer', () => {
  it('writes status, headers, cookies and body', () => {
    const answer = toHttpAnswer({ statusCode: 201, headers: { 'Content-Type': 'application/json', 'X-Count': 3 }, cookies: ['a=1; Secure', 'b=2'], body: '{"ok":true}' });
    expect(answer.statusCode).toBe(201);
    expect(answer.headers).toEqual([['content-type', 'application/json'], ['x-count', '3'], ['set-cookie', 'a=1; Secure'], ['set-cookie', 'b=2']]);
    expect(answer.body.toString()).toBe('{"ok":true}');
  });

  it('decodes a base64 body', () => {
    expect(toHttpAnswer({ statusCode: 200, body: Buffer.from([1, 2, 255]).toString('base64'), isBase64Encoded: true }).body).toEqual(Buffer.from([1, 2, 255]));
  });

  it('treats a result without statusCode as a JSON 200, as API Gateway does', () => {
    expect(toHttpAnswer({ hello: 'world' })).toEqual({ statusCode: 200, headers: [['content-type', 'application/json']], body: Buffer.from('{"hello":"world"}') });
  });

  it('refuses an invalid status code', () => {
    expect(() => toHttpAnswer({ statusCode: 42 })).toThrow(/statusCode/);
  });
});

it('formats requestContext.time like API Gateway', () => {
  expect(formatRequestTime(new Date('2020-03-02T09:03:08Z'))).toBe('02/Mar/2020:09:03:08 +0000');
});
