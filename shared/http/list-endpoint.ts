/**
 * `listEndpoint(route, fn)`: `endpoint` for a route that pages. A `cursor` in the validated
 * query is opened into the list's own position before the function runs, and a `next_cursor`
 * in its answer is sealed (`cursors.ts`): whatever a list module returns, positions never leave
 * the service readable or unbound. Apart from `endpoint` so that only list functions carry the
 * cursor keys and the Secrets Manager client that reads them.
 */
import { cursorKeysOf } from '../crypto/cursor-keys';
import { cursorBinding, InvalidCursorError, openCursor, sealCursor } from './cursors';
import { endpointWith, readEndpointWith, takesCursor, type EndpointContext, type LambdaHandler, type Pagination, type ResourceRead } from './endpoint';
import type { EndpointResult } from './responses';
import type { RouteDefinition } from './route';

const cursorPagination: Pagination = {
  /**
   * The input with its `cursor` opened into the list's position (400 when it is not a cursor of
   * this list). The keys are read only when a cursor comes or goes; a cursor that no held key
   * opens may have been sealed under a key rotated in since they were read: they are read again
   * (not more often than `ExpiringValue.refresh` allows) and tried once more.
   */
  async open(deps, routeName, principal, input) {
    const query = input.query as Record<string, unknown> | undefined;
    if (typeof query?.cursor !== 'string') return input;
    const keys = cursorKeysOf(deps);
    const bound = cursorBinding(routeName, principal, input);
    let position: string;
    try {
      position = openCursor(await keys.get(), bound, query.cursor);
    } catch (error) {
      if (!(error instanceof InvalidCursorError)) throw error;
      position = openCursor(await keys.refresh(), bound, query.cursor);
    }
    return { ...input, query: { ...query, cursor: position } };
  },
  /** The answer with its `next_cursor` sealed for this list. */
  async seal(deps, routeName, principal, input, result: EndpointResult) {
    const body = result.body as Record<string, unknown> | undefined;
    if (typeof body !== 'object' || body === null || typeof body.next_cursor !== 'string') return result;
    return { ...result, body: { ...body, next_cursor: sealCursor(await cursorKeysOf(deps).get(), cursorBinding(routeName, principal, input), body.next_cursor) } };
  },
};

export function listEndpoint<const R extends RouteDefinition>(route: R, fn: (ctx: EndpointContext<R>) => EndpointResult | Promise<EndpointResult>): LambdaHandler {
  if (!takesCursor(route)) throw new Error(`${route.method} ${route.path} takes no cursor: use endpoint`);
  return endpointWith(route, fn, cursorPagination);
}

/** A list under one stored item (a person's access): the item is read with the user record, as `readEndpoint` does. */
export function listReadEndpoint<const R extends RouteDefinition & { auth: 'bearer' }, T>(
  route: R,
  read: ResourceRead<R, T>,
  fn: (ctx: EndpointContext<R> & { resource: T }) => EndpointResult | Promise<EndpointResult>,
): LambdaHandler {
  if (!takesCursor(route)) throw new Error(`${route.method} ${route.path} takes no cursor: use readEndpoint`);
  return readEndpointWith(route, read, fn, cursorPagination);
}
