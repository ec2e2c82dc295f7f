/** Refuse bodies over the contract's 64 KiB before anything parses them. */
import type { MiddlewareObj } from '@middy/core';
import { PayloadTooLargeError } from '../../errors';
import type { TesseraRequest } from '../request-state';

export const MAX_BODY_BYTES = 64 * 1024;

export function bodySizeLimit(limitBytes = MAX_BODY_BYTES): MiddlewareObj {
  return {
    before: (request: TesseraRequest) => {
      const { body, isBase64Encoded } = request.event;
      if (body === undefined) return;
      const size = isBase64Encoded ? Buffer.from(body, 'base64').length : Buffer.byteLength(body, 'utf8');
      if (size > limitBytes) throw new PayloadTooLargeError(limitBytes);
    },
  } as MiddlewareObj;
}
