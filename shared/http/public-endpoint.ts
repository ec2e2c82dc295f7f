/**
 * `publicEndpoint(route, fn)`: the middleware chain of a route that takes no credential
 * (`auth: 'public'`: login, token, password reset, SSO, JWKS, health, the OpenAPI document).
 * Nothing here verifies a token, so these functions' bundles carry no token verification, no
 * published-key reader and no step-up checks (~26 KiB, and their import time);
 * `publicEndpoint` refuses a route that takes a credential, as `endpoint` refuses a public one.
 */
import { buildEndpoint, noPagination, refuseListRoute, type EndpointFunction, type LambdaHandler } from './endpoint-chain';
import type { RouteDefinition } from './route';

export function publicEndpoint<const R extends RouteDefinition & { auth: 'public' }>(route: R, fn: EndpointFunction<R>): LambdaHandler {
  if (route.auth !== 'public') throw new Error(`${route.method} ${route.path} takes a credential: use endpoint`);
  refuseListRoute(route);
  return buildEndpoint(route, (ctx) => fn(ctx), noPagination, []);
}
