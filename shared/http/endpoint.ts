/**
 * `endpoint(route, fn)`: the whole middleware chain of one route around a small function.
 * A handler file is one line: `export const handler = endpoint(route, async ({ input, principal, deps }) => ok(...))`.
 * A list route takes `listEndpoint` (`list-endpoint.ts`) instead, which opens the `cursor` of its
 * query and seals the `next_cursor` of its answer; `endpoint` refuses a route whose query has a
 * cursor (when the handler module loads) and an answer with a `next_cursor` (a 500, never the
 * raw position), so positions never leave the service readable or unbound.
 *
 * `readEndpoint(route, read, fn)` is the same chain for a route that answers one stored item:
 * the item is read in the same round trip as the caller's user record (one BatchGetItem), keyed
 * from the verified credential, and reaches `fn` only after every check has passed, so a warm
 * read costs one round trip and a refused caller learns nothing about the item.
 */
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import * as z from 'zod/mini';
import type { Deps } from '../deps';
import type { VerifiedCaller } from '../identity/authenticate';
import type { Principal, WorkspaceScope } from '../identity/principal';
import { sameKey, type ItemRead } from '../store/table-client';
import { authenticate, authorize, sourceIpRateLimit, stepUpMfa, type ReadAhead } from './middleware/access-control';
import { bodySizeLimit } from './middleware/body-size-limit';
import { formBody } from './middleware/form-body';
import { jsonBody } from './middleware/json-body';
import { requestScope } from './middleware/request-scope';
import { validateInput } from './middleware/validate-input';
import { securityHeaders } from './headers';
import type { EndpointResult } from './responses';
import type { RouteDefinition } from './route';
import { stateOf, type RequestState, type TesseraRequest } from './request-state';

type Infer<S> = S extends z.core.$ZodType ? z.infer<S> : undefined;
type RequestSchemas<R extends RouteDefinition> = NonNullable<R['request']>;

export interface EndpointInput<R extends RouteDefinition> {
  body: Infer<RequestSchemas<R>['body']>;
  query: Infer<RequestSchemas<R>['query']>;
  params: Infer<RequestSchemas<R>['params']>;
}

export interface RequestInfo {
  requestId: string;
  sourceIp: string;
  userAgent: string;
  header(name: string): string | undefined;
}

export interface EndpointContext<R extends RouteDefinition> {
  input: EndpointInput<R>;
  /** Present on every `bearer` route; on `bearer_or_mfa_token` routes only when a bearer was sent. */
  principal: R['auth'] extends 'bearer' ? Principal : Principal | undefined;
  deps: Deps;
  request: RequestInfo;
}

export type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

function render(result: EndpointResult): APIGatewayProxyStructuredResultV2 {
  const headers: Record<string, string> = { ...securityHeaders, 'cache-control': 'no-store', ...result.headers };
  if (result.text !== undefined) {
    return { statusCode: result.statusCode, headers: { ...headers, 'content-type': result.contentType ?? 'text/plain; charset=utf-8' }, body: result.text };
  }
  if (result.body === undefined) return { statusCode: result.statusCode, headers };
  return { statusCode: result.statusCode, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(result.body) };
}

/**
 * How a list route's cursors are opened before its function runs and sealed after
 * (`list-endpoint.ts`); other routes have none.
 */
export interface Pagination {
  open(deps: Deps, routeName: string, principal: Principal | undefined, input: RequestState['input']): Promise<RequestState['input']>;
  seal(deps: Deps, routeName: string, principal: Principal | undefined, input: RequestState['input'], result: EndpointResult): Promise<EndpointResult>;
}

const noPagination: Pagination = {
  open: (_deps, routeName, _principal, input) => {
    if (typeof (input.query as Record<string, unknown> | undefined)?.cursor === 'string') throw new Error(`${routeName} takes a cursor but is not a listEndpoint`);
    return Promise.resolve(input);
  },
  seal: (_deps, routeName, _principal, _input, result) => {
    if (typeof (result.body as Record<string, unknown> | undefined)?.next_cursor === 'string') throw new Error(`${routeName} answers a next_cursor but is not a listEndpoint`);
    return Promise.resolve(result);
  },
};

/** The route's query declares a `cursor`: it pages, and must be a `listEndpoint`. */
export function takesCursor(route: RouteDefinition): boolean {
  const query = route.request?.query as { _zod?: { def?: { shape?: Record<string, unknown> } } } | undefined;
  return Object.hasOwn(query?._zod?.def?.shape ?? {}, 'cursor');
}

const refuseListRoute = (route: RouteDefinition) => {
  if (takesCursor(route)) throw new Error(`${route.method} ${route.path} takes a cursor: use listEndpoint`);
};

type EndpointFunction<R extends RouteDefinition> = (ctx: EndpointContext<R>) => EndpointResult | Promise<EndpointResult>;

export function endpoint<const R extends RouteDefinition>(route: R, fn: EndpointFunction<R>): LambdaHandler {
  refuseListRoute(route);
  return buildEndpoint(route, (ctx) => fn(ctx), noPagination);
}

/** `endpoint` with a route's pagination (`listEndpoint`). */
export function endpointWith<const R extends RouteDefinition>(route: R, fn: EndpointFunction<R>, pagination: Pagination): LambdaHandler {
  return buildEndpoint(route, (ctx) => fn(ctx), pagination);
}

/** The caller a resource read is keyed by: tenant, workspace and user from the verified credential only. */
export interface Caller extends WorkspaceScope {
  userId: string;
}

/** A single-resource route's read: the domain's `ItemRead` for the caller and the validated path parameters. */
export type ResourceRead<R extends RouteDefinition, T> = (target: { caller: Caller; params: EndpointInput<R>['params'] }) => ItemRead<T>;

/**
 * A route that answers one stored item (`read`), handed to `fn` as `resource`. The read is
 * started with the user record once the credential is verified (`ItemAlongside`); it is used only
 * when the key it was read under is the key the principal and the validated parameters give,
 * otherwise (or when it could not be started) the item is read after the checks, as `endpoint`
 * would. A credential whose scopes lack the route's permission reads nothing ahead: it is refused.
 */
export function readEndpoint<const R extends RouteDefinition & { auth: 'bearer' }, T>(
  route: R,
  read: ResourceRead<R, T>,
  fn: (ctx: EndpointContext<R> & { resource: T }) => EndpointResult | Promise<EndpointResult>,
): LambdaHandler {
  refuseListRoute(route);
  const paramsSchema = route.request?.params;
  const callerOf = (c: { tenantId: string; workspaceId: string; userId: string }): Caller => ({ tenantId: c.tenantId, workspaceId: c.workspaceId, userId: c.userId });
  const readAhead: ReadAhead = (caller: VerifiedCaller, request) => {
    if (route.permission && !caller.scopes.includes(route.permission)) return undefined;
    let params: unknown;
    if (paramsSchema) {
      // Not valid: nothing to read; validation answers 400 in its turn, after the access checks.
      const parsed = z.safeParse(paramsSchema, request.event.pathParameters ?? {});
      if (!parsed.success) return undefined;
      params = parsed.data;
    }
    return read({ caller: callerOf(caller), params: params as EndpointInput<R>['params'] }).key;
  };
  return buildEndpoint(
    route,
    async (ctx, alongside) => {
      // A `bearer` route: authentication has set the principal (TypeScript cannot narrow the generic R).
      const principal = ctx.principal as Principal;
      const target = read({ caller: callerOf(principal), params: ctx.input.params });
      const resource = alongside && sameKey(alongside.key, target.key) ? target.found(alongside.item) : await ctx.deps.table.read(target);
      return fn({ ...ctx, resource });
    },
    noPagination,
    readAhead,
  );
}

function buildEndpoint<const R extends RouteDefinition>(
  route: R,
  fn: (ctx: EndpointContext<R>, alongside: RequestState['alongside']) => EndpointResult | Promise<EndpointResult>,
  pagination: Pagination,
  readAhead?: ReadAhead,
): LambdaHandler {
  const chain = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>().use(requestScope(`${route.method} ${route.path}`)).use(bodySizeLimit());
  if (route.ipRateLimited) chain.use(sourceIpRateLimit());
  chain.use(authenticate(route, readAhead)).use(authorize(route)).use(stepUpMfa(route));
  if (route.request?.body) chain.use(route.request.bodyEncoding === 'form' ? formBody() : jsonBody());
  chain.use(validateInput(route));

  const routeName = `${route.method} ${route.path}`;
  const handler = chain.handler(async (event, context) => {
    const request = { event, context } as TesseraRequest;
    const state = stateOf(request);
    const headers = event.headers ?? {};
    const result = await fn({
      input: (await pagination.open(state.deps, routeName, state.principal, state.input)) as EndpointInput<R>,
      principal: state.principal as EndpointContext<R>['principal'],
      deps: state.deps,
      request: {
        requestId: state.requestId,
        sourceIp: state.sourceIp,
        userAgent: state.userAgent,
        header: (name) => headers[name.toLowerCase()] ?? Object.entries(headers).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1],
      },
    }, state.alongside);
    return render(await pagination.seal(state.deps, routeName, state.principal, state.input, result));
  });
  return handler;
}
