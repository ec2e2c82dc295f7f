/**
 * The `$default` route's function, invoked as API Gateway invokes it: an event whose routeKey is
 * `$default` and which has no path parameters. It answers from the route table: 405 with the
 * methods a path has (HEAD and OPTIONS included: no route takes them, and no CORS is set), else
 * 404, as problem+json with the endpoints' headers. The local host's own tests
 * (local-host.test.ts) call it through HTTP.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler } from '../../functions/route-not-found';
import { lambdaContext } from '../../infra/local/lambda-context';
import { startTestHost, type TestHost } from '../support/test-host';

let host: TestHost;

beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host?.close());

/** A `$default` route event as API Gateway (HTTP API, payload 2.0) sends it. */
function defaultRouteEvent(method: string, rawPath: string): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString: '',
    headers: { host: 'api.example.test', 'user-agent': 'probe/1.0' },
    requestContext: {
      accountId: '123456789012', apiId: 'abc123', domainName: 'api.example.test', domainPrefix: 'api', requestId: 'Xyz0AbCdEfGhIjK=', routeKey: '$default', stage: '$default',
      time: '25/Nov/2026:03:00:00 +0000', timeEpoch: Date.UTC(2026, 10, 25, 3),
      http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: 'probe/1.0' },
    },
    isBase64Encoded: false,
  };
}

const invoke = (method: string, rawPath: string) => handler(defaultRouteEvent(method, rawPath), lambdaContext('route-not-found', 10_000));

describe('the $default route function', () => {
  it('answers a path no route has with 404 problem+json, carrying the request id and the endpoints\' headers', async () => {
    const res = await invoke('GET', '/v1/nowhere');
    expect(res.statusCode).toBe(404);
    expect(res.headers).toMatchObject({ 'content-type': 'application/problem+json', 'x-request-id': 'Xyz0AbCdEfGhIjK=', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
    expect(JSON.parse(res.body!)).toEqual({ type: '/problems/not_found', title: 'Not found', status: 404, code: 'not_found', detail: 'No route matches /v1/nowhere', request_id: 'Xyz0AbCdEfGhIjK=' });
  });

  it.each([
    ['DELETE', '/v1/users', 'GET, POST'],
    ['PUT', '/v1/users/usr_1', 'GET, PATCH'],
    ['HEAD', '/v1/health', 'GET'],
    ['OPTIONS', '/v1/connections', 'GET, POST'],
  ])('answers %s %s, a path the table has under other methods, with 405 and Allow: %s', async (method, rawPath, allow) => {
    const res = await invoke(method, rawPath);
    expect(res.statusCode).toBe(405);
    expect(res.headers).toMatchObject({ allow, 'content-type': 'application/problem+json' });
    expect(JSON.parse(res.body!)).toMatchObject({ code: 'method_not_allowed', detail: `${method} is not allowed here; use ${allow}` });
  });

  it('answers 404 outside /v1 and for a path one segment past a route', async () => {
    for (const rawPath of ['/', '/admin', '/v1/users/usr_1/disable/now']) expect((await invoke('GET', rawPath)).statusCode, rawPath).toBe(404);
  });
});
