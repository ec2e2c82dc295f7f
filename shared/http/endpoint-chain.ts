/**
 * The middleware chain of a route around its function, without the checks of who calls: the
 * request scope, the body size limit, the per-IP limit when the route has one, the body's
 * media type and parser and validation, then the function, its cursors (`Pagination`) and the rendered answer. The
 * checks of a credential come from `endpoint.ts` (`access`); a public route
 * (`public-endpoint.ts`) has none, so its bundle carries no token verification.
 */
import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { z } from 'zod/mini';
import type { Deps } from '../deps';
import type { Principal } from '../identity/principal';
import { bodySizeLimit } from './middleware/body-size-limit';
import { formBody } from './middleware/form-body';
import { jsonBody } from './middleware/json-body';
import { requestScope } from './middleware/request-scope';
import { sourceIpRateLimit } from './middleware/source-ip-rate-limit';
import { validateInput } from './middleware/validate-input';
import { securityHeaders } from './headers';
import type { EndpointResult } from './responses';
import type { RouteDefinition } from './route';
import { stateOf, type RequestState, type TesseraRequest } from './request-state';
import { tracing } from '../tracing';

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
  /** What the invocation has left before the function's timeout (the Lambda context's clock). */
  remainingTimeMs(): number;
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

export const noPagination: Pagination = {
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

export function refuseListRoute(route: RouteDefinition): void {
  if (takesCursor(route)) throw new Error(`${route.method} ${route.path} takes a cursor: use listEndpoint`);
}

export type EndpointFunction<R extends RouteDefinition> = (ctx: EndpointContext<R>) => EndpointResult | Promise<EndpointResult>;

export function buildEndpoint<const R extends RouteDefinition>(
  route: R,
  fn: (ctx: EndpointContext<R>, alongside: RequestState['alongside']) => EndpointResult | Promise<EndpointResult>,
  pagination: Pagination,
  /** The checks of who calls, in the contract's order (credential, permission, step-up); none on a public route. */
  access: readonly MiddlewareObj[],
): LambdaHandler {
  const chain = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>();
  // First, so the invocation's subsegment spans every other middleware.
  const traced = tracing.handlerMiddleware();
  if (traced) chain.use(traced);
  chain.use(requestScope(`${route.method} ${route.path}`)).use(bodySizeLimit());
  if (route.ipRateLimited) chain.use(sourceIpRateLimit());
  for (const check of access) chain.use(check);
  chain.use(route.request?.bodyEncoding === 'form' ? formBody() : jsonBody({ parse: route.request?.body !== undefined }));
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
        remainingTimeMs: () => context.getRemainingTimeInMillis(),
      },
    }, state.alongside);
    return render(await pagination.seal(state.deps, routeName, state.principal, state.input, result));
  });
  return handler;
}
