/**
 * The HTTP headers of the API beyond content negotiation, each with its zod schema: the route
 * table names them per route, validation reads request headers through them, and the OpenAPI
 * document publishes them. Which error answers carry which header is the error catalogue's
 * business (shared/errors.ts); this module only describes them.
 */
import * as z from 'zod/mini';
import type { HeaderSpec } from './route';

/** draft-ietf-httpapi-idempotency-key-header; visible ASCII so it can be logged and compared safely. */
export const IdempotencyKeySchema = z.string().check(z.regex(/^[\x21-\x7e]{1,255}$/, { message: 'must be 1 to 255 visible ASCII characters' }));

export const requestHeaders = {
  ifMatch: {
    description: 'The ETag of the version you read: the change applies only while it is still the current one (else 412 precondition_failed); `*` matches any version. Without it, the change applies to whatever is current.',
    schema: z.string().check(z.minLength(1), z.maxLength(256)),
  },
  idempotencyKey: {
    description: 'A key of your choice (1 to 255 visible ASCII characters) that makes a retry safe: the same key with the same body answers the first result again instead of creating a second resource; with another body, 422.',
    schema: IdempotencyKeySchema,
  },
} satisfies Record<string, HeaderSpec>;

export const responseHeaders = {
  etag: { description: 'Version of the resource; send it back in `If-Match` to make a change conditional.', schema: z.string().check(z.minLength(1)), required: true },
  location: { description: 'Where the browser goes next.', schema: z.url(), required: true },
  createdLocation: { description: 'The URL of what the request started or created (absolute).', schema: z.url(), required: true },
  retryAfter: { description: 'Seconds to wait before trying again (RFC 9110).', schema: z.int().check(z.gte(1)), required: true },
  wwwAuthenticate: {
    description: 'The authentication scheme (`Bearer`); with `error="insufficient_user_authentication"` when the action needs a recent MFA (RFC 9470). Absent on a failed login (`invalid_credentials`).',
    schema: z.string().check(z.minLength(1)),
    required: false,
  },
} satisfies Record<string, HeaderSpec>;

/**
 * On every answer: no content sniffing, and a policy that lets no answer of the API run
 * anything, load anything or be framed (a JSON body opened in a browser stays inert).
 */
export const securityHeaders: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'referrer-policy': 'no-referrer',
};
