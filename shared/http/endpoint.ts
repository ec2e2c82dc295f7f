/**
 * `endpoint(route, fn)`: the whole middleware chain of one route around a small function.
 * A handler file is one line: `export const handler = endpoint(route, async ({ input, principal, deps }) => ok(...))`.
 * On every route, a `cursor` in the validated query is opened into the list's own position before
 * the function runs, and a `next_cursor` in its answer is sealed (`cursors.ts`): whatever a
 * list module returns, positions never leave the service readable or unbound.
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

type EndpointFunction<R extends RouteDefinition> = (ctx: EndpointContext<R>) => EndpointResult | Promise<EndpointResult>;

export function endpoint<const R extends RouteDefinition>(route: R, fn: EndpointFunction<R>): LambdaHandler {
  return buildEndpoint(route, (ctx) => fn(ctx));
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
    readAhead,
  );
}

function buildEndpoint<const R extends RouteDefinition>(
  route: R,
  fn: (ctx: EndpointContext<R>, alongside: RequestState['alongside']) => EndpointResult | Promise<EndpointResult>,
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
    }, state.alongside);
    return render(await withSealedCursor(cursorKeys, binding, result));
  });
  return handler;
}
