/**
 * JSON body parsing with @middy/http-json-body-parser, its errors turned into our
 * `malformed_json` problem. The content type is not insisted on: a JSON body is parsed
 * whatever the client labelled it, and anything that is not JSON is refused the same way.
 * An empty body is an empty object, so routes whose fields are all optional need none.
 */
import type { MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import { MalformedJsonError } from '../../errors';
import type { TesseraRequest } from '../request-state';

export function jsonBody(): MiddlewareObj {
  const parser = httpJsonBodyParser({ disableContentTypeCheck: true });
  return {
    before: async (request: TesseraRequest) => {
      // No body reads as `{}`: the schema then says which fields are required.
      if (request.event.body === undefined || request.event.body === '') {
        request.event.body = '{}';
        request.event.isBase64Encoded = false;
      }
      try {
        await parser.before?.(request);
      } catch {
        throw new MalformedJsonError();
      }
    },
  } as MiddlewareObj;
}
