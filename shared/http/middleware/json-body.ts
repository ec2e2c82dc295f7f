/**
 * JSON bodies: the media type is insisted on, then the body is parsed with
 * @middy/http-json-body-parser, its errors turned into our `malformed_json` problem.
 *
 * A body labelled anything but `application/json` or a `+json` type (RFC 6839) is refused
 * with 415 before it is read (API.md, Conventions), and so is a body with no Content-Type at
 * all: RFC 9110 §8.3 lets a recipient take such a body for `application/octet-stream`, which
 * is not JSON, and guessing would let a cross-site form or a `text/plain` post (a "simple"
 * request that no CORS preflight stops) be taken as JSON. A request without a body needs no
 * type: an empty body reads as an empty object, so routes whose fields are all optional need
 * none. Routes that declare no body get the media-type check alone (`parse: false`): whatever
 * they are sent is not read, but a non-JSON body is refused as everywhere else.
 */
import type { MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import { MalformedJsonError, UnsupportedMediaTypeError } from '../../errors';
import { headerOf, type TesseraRequest } from '../request-state';

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

export function jsonBody(options: { parse: boolean } = { parse: true }): MiddlewareObj {
  const parser = httpJsonBodyParser({ disableContentTypeCheck: true });
  return {
    before: async (request: TesseraRequest) => {
      const hasBody = request.event.body !== undefined && request.event.body !== '';
      if (hasBody && !JSON_MEDIA_TYPE.test(headerOf(request, 'content-type')?.trim() ?? '')) throw new UnsupportedMediaTypeError();
      if (!options.parse) return;
      // No body reads as `{}`: the schema then says which fields are required.
      if (!hasBody) {
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
