/**
 * `application/x-www-form-urlencoded` bodies (SAML HTTP-POST binding, OIDC form_post) into a
 * plain object for the route's strict schema. API Gateway (HTTP API) hands such bodies to the
 * function base64-encoded (`isBase64Encoded: true`), and the local host does the same, so the
 * body is decoded first. Another content type, or a field given twice, is refused.
 */
import type { MiddlewareObj } from '@middy/core';
import { ValidationError } from '../../errors';
import { headerOf, type TesseraRequest } from '../request-state';

const FORM = /^application\/x-www-form-urlencoded\s*(;|$)/i;

export function formBody(): MiddlewareObj {
  return {
    before: (request: TesseraRequest) => {
      const event = request.event;
      const raw = event.body === undefined ? '' : event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
      if (raw !== '' && !FORM.test(headerOf(request, 'content-type') ?? '')) {
        throw new ValidationError([{ path: '', message: 'must be sent as application/x-www-form-urlencoded' }]);
      }
      const fields: Record<string, string> = {};
      for (const [name, value] of new URLSearchParams(raw)) {
        if (Object.hasOwn(fields, name)) throw new ValidationError([{ path: name, message: 'must be given once' }]);
        fields[name] = value;
      }
      (event as { body: unknown }).body = fields;
      event.isBase64Encoded = false;
    },
  } as MiddlewareObj;
}
