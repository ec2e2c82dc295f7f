/**
 * `endpoint(route, fn)`: the whole middleware chain of one route around a small function, with
 * the checks of who calls (`endpoint-chain.ts` has the rest). A public route takes
 * `publicEndpoint` (`public-endpoint.ts`), which has no such checks; `endpoint` refuses one.
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
import * as z from 'zod/mini';
import type { MiddlewareObj } from '@middy/core';
import type { VerifiedCaller } from '../identity/authenticate';
import type { Principal, WorkspaceScope } from '../identity/principal';
import { sameKey, type ItemRead } from '../store/table-client';
import { authenticate, authorize, stepUpMfa, type ReadAhead } from './middleware/access-control';
import { buildEndpoint, noPagination, refuseListRoute, type EndpointFunction, type EndpointContext, type EndpointInput, type LambdaHandler, type Pagination } from './endpoint-chain';
import type { EndpointResult } from './responses';
import type { RouteDefinition } from './route';

export { takesCursor, type EndpointContext, type EndpointInput, type LambdaHandler, type Pagination } from './endpoint-chain';

/** Credential (401), permission (403), step-up (401 mfa_required): before the body is even parsed. */
function accessChecks(route: RouteDefinition, readAhead?: ReadAhead): MiddlewareObj[] {
  return [authenticate(route, readAhead), authorize(route), stepUpMfa(route)];
}

function refusePublicRoute(route: RouteDefinition): void {
  if (route.auth === 'public') throw new Error(`${route.method} ${route.path} is public: use publicEndpoint`);
}

export function endpoint<const R extends RouteDefinition>(route: R, fn: EndpointFunction<R>): LambdaHandler {
  refuseListRoute(route);
  refusePublicRoute(route);
  return buildEndpoint(route, (ctx) => fn(ctx), noPagination, accessChecks(route));
}

/** `endpoint` with a route's pagination (`listEndpoint`). */
export function endpointWith<const R extends RouteDefinition>(route: R, fn: EndpointFunction<R>, pagination: Pagination): LambdaHandler {
  refusePublicRoute(route);
  return buildEndpoint(route, (ctx) => fn(ctx), pagination, accessChecks(route));
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
  return readEndpointWith(route, read, fn, noPagination);
}

/** `readEndpoint` with a route's pagination: a list under one stored item (`listReadEndpoint`). */
export function readEndpointWith<const R extends RouteDefinition & { auth: 'bearer' }, T>(
  route: R,
  read: ResourceRead<R, T>,
  fn: (ctx: EndpointContext<R> & { resource: T }) => EndpointResult | Promise<EndpointResult>,
  pagination: Pagination,
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
    pagination,
    accessChecks(route, readAhead),
  );
}

