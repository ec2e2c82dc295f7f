/**
 * What API Gateway (HTTP API, payload format 2.0) does around a Lambda handler, as pure
 * functions: build the event, turn the handler's result into an HTTP answer (picking the route
 * is `shared/http/route-match.ts`). The local host and its unit tests use these; they mirror
 * AWS's behaviour, quirks included, so that a handler that works locally works behind the real
 * API.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

export interface ReceivedRequest {
  method: string;
  /** The request target as received: path and query, `/v1/users/usr_1?limit=5`. */
  target: string;
  /** Node's `rawHeaders`: name, value, name, value, ... in arrival order. */
  rawHeaders: readonly string[];
  body: Buffer;
  /** The client address API Gateway would report. */
  sourceIp: string;
  /** The address of the socket that talked to us (appended to X-Forwarded-For, as AWS does). */
  peerIp: string;
  localPort: number;
  httpVersion: string;
}

export interface EventMeta {
  routeKey: string;
  pathParameters: Record<string, string>;
  requestId: string;
  now: Date;
}

// Verified against AWS (HTTP API, payload 2.0): only these arrive as text; everything else,
// a missing Content-Type and application/x-www-form-urlencoded included, arrives base64.
const TEXT_CONTENT_TYPE = /^(text\/[^;\s]+|application\/(json|xml|javascript))\s*(;|$)/i;

// Hop-by-hop headers end at API Gateway; it forwards a plain, fully-read body.
const DROPPED_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'te', 'proxy-connection', 'cookie']);

export function buildApiGatewayEvent(request: ReceivedRequest, meta: EventMeta): APIGatewayProxyEventV2 {
  const queryAt = request.target.indexOf('?');
  const rawPath = queryAt < 0 ? request.target : request.target.slice(0, queryAt);
  const rawQueryString = queryAt < 0 ? '' : request.target.slice(queryAt + 1);

  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (let i = 0; i + 1 < request.rawHeaders.length; i += 2) {
    const name = request.rawHeaders[i]!.toLowerCase();
    const value = request.rawHeaders[i + 1]!;
    // Cookies travel separately in payload 2.0: one entry per cookie, no `cookie` header.
    if (name === 'cookie') cookies.push(...value.split(';').map((c) => c.trim()).filter(Boolean));
    if (DROPPED_HEADERS.has(name)) continue;
    headers[name] = name in headers ? `${headers[name]},${value}` : value;
  }
  headers['x-forwarded-for'] = headers['x-forwarded-for'] ? `${headers['x-forwarded-for']}, ${request.peerIp}` : request.peerIp;
  headers['x-forwarded-port'] = String(request.localPort);
  headers['x-forwarded-proto'] = 'http';
  if (request.body.length > 0) headers['content-length'] = String(request.body.length);
  else delete headers['content-length'];

  const query: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(rawQueryString)) {
    query[key] = key in query ? `${query[key]},${value}` : value; // repeats are comma-joined
  }

  const domainName = headers.host ?? `127.0.0.1:${request.localPort}`;
  const hasBody = request.body.length > 0;
  const isText = TEXT_CONTENT_TYPE.test(headers['content-type'] ?? '');
  return {
    version: '2.0',
    routeKey: meta.routeKey,
    rawPath,
    rawQueryString,
    ...(cookies.length ? { cookies } : {}),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName,
      domainPrefix: domainName.split(/[.:]/)[0] ?? domainName,
      http: {
        method: request.method.toUpperCase(),
        path: rawPath,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: meta.requestId,
      routeKey: meta.routeKey,
      stage: '$default',
      time: formatRequestTime(meta.now),
      timeEpoch: meta.now.getTime(),
    },
    ...(Object.keys(meta.pathParameters).length ? { pathParameters: { ...meta.pathParameters } } : {}),
    ...(hasBody ? { body: request.body.toString(isText ? 'utf8' : 'base64') } : {}),
    isBase64Encoded: hasBody && !isText,
  };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** API Gateway's `requestContext.time`: `12/Mar/2020:19:03:58 +0000`. */
export function formatRequestTime(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(date.getUTCDate())}/${MONTHS[date.getUTCMonth()]}/${date.getUTCFullYear()}:` +
    `${p(date.getUTCHours())}:${p(date.getUTCMinutes())}:${p(date.getUTCSeconds())} +0000`;
}

export interface HttpAnswer {
  statusCode: number;
  /** Pairs, so that several `set-cookie` lines survive. */
  headers: [string, string][];
  body: Buffer;
}

/** Turns a handler's result into the HTTP answer API Gateway would send. */
export function toHttpAnswer(result: unknown): HttpAnswer {
  // Without a statusCode, API Gateway treats the whole result as a JSON 200 answer.
  if (typeof result !== 'object' || result === null || !('statusCode' in result) || result.statusCode === undefined) {
    return { statusCode: 200, headers: [['content-type', 'application/json']], body: Buffer.from(JSON.stringify(result) ?? '') };
  }
  const { statusCode, headers = {}, cookies = [], body, isBase64Encoded } = result as APIGatewayProxyStructuredResultV2 & { statusCode: number };
  if (!Number.isInteger(statusCode) || statusCode < 100 || statusCode > 599) {
    throw new Error(`Handler returned an invalid statusCode: ${String(statusCode)}`);
  }
  const pairs: [string, string][] = Object.entries(headers).map(([name, value]) => [name.toLowerCase(), String(value)]);
  for (const cookie of cookies) pairs.push(['set-cookie', cookie]);
  return {
    statusCode,
    headers: pairs,
    body: body === undefined ? Buffer.alloc(0) : Buffer.from(body, isBase64Encoded ? 'base64' : 'utf8'),
  };
}
