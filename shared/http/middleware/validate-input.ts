/**
 * zod validation of path parameters, query string, body (strict: nothing unknown passes) and
 * of the request headers the route declares (other headers are the transport's business).
 */
import type { MiddlewareObj } from '@middy/core';
import type { RouteDefinition } from '../route';
import { headerOf, stateOf, type TesseraRequest } from '../request-state';
import { parseWith } from '../../schemas/validation';

export function validateInput(route: RouteDefinition): MiddlewareObj {
  const schemas = route.request ?? {};
  return {
    before: (request: TesseraRequest) => {
      const state = stateOf(request);
      const event = request.event;
      if (schemas.params) state.input.params = parseWith(schemas.params, event.pathParameters ?? {});
      if (schemas.query) state.input.query = parseWith(schemas.query, event.queryStringParameters ?? {});
      if (schemas.body) state.input.body = parseWith(schemas.body, event.body);
      for (const [name, spec] of Object.entries(schemas.headers ?? {})) {
        const value = headerOf(request, name);
        if (value !== undefined || spec.required) parseWith(spec.schema, value, name);
      }
    },
  } as MiddlewareObj;
}
