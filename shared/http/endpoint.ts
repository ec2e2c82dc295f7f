/**
 * `endpoint(route, fn)`: the whole middleware chain of one route around a small function.
 * A handler file is one line: `export const handler = endpoint(route, async ({ input, principal, deps }) => ok(...))`.
 * On every route, a `cursor` in the validated query is opened into the list's own position before
 * the function runs, and a `next_cursor` in its answer is sealed (`cursors.ts`): whatever a
 * list module returns, positions never leave the service readable or unbound.
 */
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { z } from 'zod/mini';
import type { Deps } from '../deps';
import type { Principal } from '../identity/principal';
import { authenticate, authorize, sourceIpRateLimit, stepUpMfa } from './middleware/access-control';
import { bodySizeLimit } from './middleware/body-size-limit';
import { formBody } from './middleware/form-body';
import { jsonBody } from './middleware/json-body';
import { requestScope } from './middleware/request-scope';
import { validateInput } from './middleware/validate-input';
import { cursorBinding, InvalidCursorError, openCursor, sealCursor, type CursorBinding } from './cursors';
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
 * The input with its `cursor` opened into the list's position (400 when it is not a cursor of
 * this list). The keys are read only when a cursor comes or goes, so other routes never read
 * them; a cursor that no held key opens may have been sealed under a key rotated in since they
 * were read: they are read again (not more often than `ExpiringValue.refresh` allows) and tried once more.
 */
async function withOpenedCursor(cursorKeys: Deps['cursorKeys'], binding: CursorBinding, input: RequestState['input']): Promise<RequestState['input']> {
  const query = input.query as Record<string, unknown> | undefined;
  if (typeof query?.cursor !== 'string') return input;
  const cursor = query.cursor;
  let position: string;
  try {
    position = openCursor(await cursorKeys.get(), binding, cursor);
  } catch (error) {
    if (!(error instanceof InvalidCursorError)) throw error;
    position = openCursor(await cursorKeys.refresh(), binding, cursor);
  }
  return { ...input, query: { ...query, cursor: position } };
}

/** The answer with its `next_cursor` sealed for this list. */
async function withSealedCursor(cursorKeys: Deps['cursorKeys'], binding: CursorBinding, result: EndpointResult): Promise<EndpointResult> {
  const body = result.body as Record<string, unknown> | undefined;
  if (typeof body !== 'object' || body === null || typeof body.next_cursor !== 'string') return result;
  return { ...result, body: { ...body, next_cursor: sealCursor(await cursorKeys.get(), binding, body.next_cursor) } };
}

export function endpoint<const R extends RouteDefinition>(route: R, fn: (ctx: EndpointContext<R>) => EndpointResult | Promise<EndpointResult>): LambdaHandler {
  const chain = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>().use(requestScope(`${route.method} ${route.path}`)).use(bodySizeLimit());
  if (route.ipRateLimited) chain.use(sourceIpRateLimit());
  chain.use(authenticate(route)).use(authorize(route)).use(stepUpMfa(route));
  if (route.request?.body) chain.use(route.request.bodyEncoding === 'form' ? formBody() : jsonBody());
  chain.use(validateInput(route));

  const routeName = `${route.method} ${route.path}`;
  const handler = chain.handler(async (event, context) => {
    const request = { event, context } as TesseraRequest;
    const state = stateOf(request);
    const headers = event.headers ?? {};
    const cursorKeys = state.deps.cursorKeys;
    const binding = cursorBinding(routeName, state.principal, state.input);
    const result = await fn({
      input: (await withOpenedCursor(cursorKeys, binding, state.input)) as EndpointInput<R>,
      principal: state.principal as EndpointContext<R>['principal'],
      deps: state.deps,
      request: {
        requestId: state.requestId,
        sourceIp: state.sourceIp,
        userAgent: state.userAgent,
        header: (name) => headers[name.toLowerCase()] ?? Object.entries(headers).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1],
      },
    });
    return render(await withSealedCursor(cursorKeys, binding, result));
  });
  return handler;
}
