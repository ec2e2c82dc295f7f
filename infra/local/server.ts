/**
 * The local host: a node:http server that plays API Gateway (HTTP API, payload 2.0) in front
 * of the real handlers, dispatching from the one route table. It adds no behaviour of its own
 * beyond what API Gateway does (routing, body limit, event shape), so local runs and tests
 * exercise the same code paths as AWS.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { DEFAULT_ROUTE_HANDLER, routeList } from '../../functions/routes';
import { createDeps } from '../../functions/start/deps-assembly';
import { loadConfig } from '../../shared/config';
import { setDepsFactory } from '../../shared/deps';
import { PayloadTooLargeError, TesseraError } from '../../shared/errors';
import { problemResponse, toTesseraError } from '../../shared/http/problem';
import { DEFAULT_ROUTE_KEY } from '../../shared/http/default-route-endpoint';
import { matchRoute } from '../../shared/http/route-match';
import { functionTimeoutSeconds } from '../function-timeouts';
import { buildApiGatewayEvent, toHttpAnswer, type HttpAnswer } from './api-gateway-event';
import { lambdaContext } from './lambda-context';

/** A page or file served for GET outside the API (local mode only: the web console). */
export interface StaticPage {
  contentType: string;
  body: string | Buffer;
  headers?: Record<string, string>;
}

export interface LocalHostOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** Take the client address from the first X-Forwarded-For entry (tests simulate many clients). */
  trustForwardedFor?: boolean;
  /** Pages by path (GET only), answered before the route table; none in tests unless given. */
  pages?: Record<string, StaticPage>;
  /**
   * A site for GETs that no route matches (the web console, see console-site.ts); it answers
   * undefined for paths that are not its own, which stay a problem+json 404.
   */
  site?: (rawPath: string) => Promise<StaticPage | undefined>;
  /** Where failures of handlers (500s) are reported; the answer itself never carries them. */
  onError?: (error: unknown, where: string) => void;
  /** Tests: a shorter timeout (ms) for some functions than the stack gives them (`functionTimeoutSeconds`). */
  functionTimeoutsMs?: Readonly<Record<string, number>>;
}

export interface LocalHost {
  url: string;
  close(): Promise<void>;
}

/** Handlers enforce 64 KiB themselves; this only keeps absurd bodies out of memory. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** An HTTP API's integration timeout: no function answers later than this. */
const API_GATEWAY_TIMEOUT_MS = 30_000;
/** How long close() waits for requests in flight: the longest a handler may run, and a little more. */
const CLOSE_GRACE_MS = API_GATEWAY_TIMEOUT_MS + 1_000;

type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

export async function startLocalHost(options: LocalHostOptions = {}): Promise<LocalHost> {
  // As in a Lambda bundle (functions/start/lambda-start.ts): deps from the configuration,
  // unless the caller (local service, tests) has set its own.
  setDepsFactory(() => createDeps(loadConfig()));
  const host = options.host ?? '127.0.0.1';
  const onError = options.onError ?? ((error, where) => console.error(`[local-host] ${where} failed:`, error));
  const handlers = new Map<string, Promise<LambdaHandler>>();
  let closing = false;

  const server = http.createServer((req, res) => {
    const requestId = randomBytes(10).toString('base64'); // the shape of API Gateway's ids
    serve(req, requestId)
      .catch((error: unknown) => {
        onError(error, `${req.method} ${req.url}`);
        return answerProblem(toTesseraError(error), requestId);
      })
      // While closing, the socket is not kept alive for another request.
      .then((answer) => send(res, closing ? { ...answer, close: true } : answer, requestId), (error: unknown) => { onError(error, 'writing the answer'); res.destroy(); });
  });

  // What node:http refuses before any handler runs (oversized headers, a request it cannot
  // parse) is answered as problem+json too, where Node would send a bare status line.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') return socket.destroy();
    const problem = error.code === 'HPE_HEADER_OVERFLOW'
      ? new TesseraError('headers_too_large', 'The request headers are too large')
      : new TesseraError('validation_failed', 'The request is not valid HTTP');
    socket.end(rawHttpAnswer(answerProblem(problem, randomBytes(10).toString('base64'))));
  });

  async function serve(req: http.IncomingMessage, requestId: string): Promise<HttpAnswer & { close?: boolean }> {
    const method = req.method ?? 'GET';
    const target = req.url ?? '/';
    const rawPath = target.split('?', 1)[0]!;
    const page = options.pages?.[rawPath];
    if (page && (method === 'GET' || method === 'HEAD')) return staticAnswer(page, method);
    const match = matchRoute(routeList, method, rawPath);
    const sitePage = match.kind === 'not_found' && (method === 'GET' || method === 'HEAD') ? await options.site?.(rawPath) : undefined;
    if (sitePage) return staticAnswer(sitePage, method);
    // What no route takes goes to the `$default` route's function, as API Gateway sends it; that
    // function reads no body, so none is read here.
    const { handlerName, routeKey, pathParameters } = match.kind === 'found'
      ? { handlerName: match.route.handler, routeKey: `${match.route.method} ${match.route.path}`, pathParameters: match.pathParameters }
      : { handlerName: DEFAULT_ROUTE_HANDLER, routeKey: DEFAULT_ROUTE_KEY, pathParameters: {} };
    const body = match.kind === 'found' ? await readBody(req) : Buffer.alloc(0);
    if (!body) return { ...answerProblem(new PayloadTooLargeError(MAX_BODY_BYTES), requestId), close: true };

    const peerIp = normalizeIp(req.socket.remoteAddress);
    const event = buildApiGatewayEvent(
      {
        method, target, rawHeaders: req.rawHeaders, body, peerIp,
        sourceIp: (options.trustForwardedFor && forwardedClient(req.headers['x-forwarded-for'])) || peerIp,
        localPort: req.socket.localPort ?? 0,
        httpVersion: req.httpVersion,
      },
      { routeKey, pathParameters, requestId, now: new Date() },
    );
    const handler = await loadHandler(handlerName);
    // Each function gets the timeout the stack gives it, as its context's remaining time; the
    // handler's middy chain ends an invocation that outlives it with a 500, as in AWS.
    const timeoutMs = Math.min(options.functionTimeoutsMs?.[handlerName] ?? functionTimeoutSeconds(handlerName) * 1000, API_GATEWAY_TIMEOUT_MS);
    return toHttpAnswer(await handler(event, lambdaContext(handlerName, timeoutMs)));
  }

  function loadHandler(name: string): Promise<LambdaHandler> {
    // Imported on first use and kept, like a Lambda cold start; a failed import is retried.
    let loading = handlers.get(name);
    if (!loading) {
      loading = import(`../../functions/${name}.ts`).then((module: { handler?: unknown }) => {
        if (typeof module.handler !== 'function') throw new Error(`functions/${name}.ts does not export a handler`);
        return module.handler as LambdaHandler;
      });
      loading.catch(() => handlers.delete(name));
      handlers.set(name, loading);
    }
    return loading;
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => { server.off('error', reject); resolve(); });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    // Stops accepting, lets the requests in flight finish (as Lambda lets an invocation end),
    // then closes: idle keep-alive sockets at once, busy ones when their answer is sent, any
    // left after CLOSE_GRACE_MS by force.
    close: () => new Promise<void>((resolve, reject) => {
      closing = true;
      const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
      server.close((error) => {
        clearTimeout(force);
        if (error) reject(error);
        else resolve();
      });
      server.closeIdleConnections(); // keep-alive sockets of clients would hold close() open
    }),
  };
}

function staticAnswer(page: StaticPage, method: string): HttpAnswer {
  return { statusCode: 200, headers: [...Object.entries(page.headers ?? {}), ['content-type', page.contentType]], body: method === 'GET' ? Buffer.from(page.body) : Buffer.alloc(0) };
}

/** The body, or undefined when it exceeds MAX_BODY_BYTES (reading stops there). */
function readBody(req: http.IncomingMessage): Promise<Buffer | undefined> {
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.off('data', onData);
        resolve(undefined);
      } else {
        chunks.push(chunk);
      }
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

function answerProblem(error: TesseraError, requestId: string): HttpAnswer {
  return toHttpAnswer(problemResponse(error, requestId));
}

function send(res: http.ServerResponse, answer: HttpAnswer & { close?: boolean }, requestId: string): void {
  const headers = new Map<string, string | string[]>();
  for (const [name, value] of answer.headers) {
    const seen = headers.get(name);
    headers.set(name, seen === undefined ? value : [...[seen].flat(), value]);
  }
  headers.set('apigw-requestid', requestId);
  headers.set('content-length', String(answer.body.length));
  // After a refused body the rest of it is still on the wire: close instead of reading it.
  if (answer.close) headers.set('connection', 'close');
  res.writeHead(answer.statusCode, Object.fromEntries(headers));
  res.end(answer.body);
}

/** A whole HTTP/1.1 answer as bytes, for a socket that has no request object. */
function rawHttpAnswer(answer: HttpAnswer): Buffer {
  const head = [`HTTP/1.1 ${answer.statusCode} ${http.STATUS_CODES[answer.statusCode] ?? ''}`];
  for (const [name, value] of answer.headers) head.push(`${name}: ${value}`);
  head.push(`content-length: ${answer.body.length}`, 'connection: close', '', '');
  return Buffer.concat([Buffer.from(head.join('\r\n'), 'latin1'), answer.body]);
}

const forwardedClient = (header: string | string[] | undefined): string | undefined =>
  [header].flat().join(',').split(',')[0]?.trim() || undefined;

const normalizeIp = (address: string | undefined): string =>
  address?.startsWith('::ffff:') ? address.slice(7) : address ?? '127.0.0.1';
