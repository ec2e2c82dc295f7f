/**
 * The field schemas every resource's schemas use: opaque ids, free text a person gives,
 * timestamps. They sit below the domain (the identity and connection schema modules import
 * them, and so do the HTTP path schemas), so no domain module reaches up into shared/http.
 */
import * as z from 'zod/mini';

/** An opaque id of a given type: `usr_...`, `ws_...`. */
export const idOf = (prefix: string) =>
  z.string().check(z.regex(new RegExp(`^${prefix}_[0-9a-z]{10,40}$`), { message: `must be an id that starts with ${prefix}_ followed by 10 to 40 lowercase letters or digits` }));

/**
 * A name or other free text a person gives (a workspace, a connection, a token): trimmed, and
 * without control characters (NUL, ESC, line breaks), which would corrupt logs, terminals and
 * CSV exports downstream. The one schema every such field uses.
 */
export const DisplayText = (maxLength: number) =>
  z
    .string()
    .check(z.trim(), z.minLength(1), z.maxLength(maxLength), z.regex(/^[^\p{Cc}\u2028\u2029]*$/u, { message: 'must not contain control characters' }));

export const TimestampSchema = z.iso.datetime();
