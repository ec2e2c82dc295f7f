/** Schemas shared by many routes: ids in paths, paging, problem answers. */
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

export const IdPathSchema = (prefix: string) => z.strictObject({ id: idOf(prefix) });

export const PageQuerySchema = z.strictObject({
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 50),
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
});

export const ProblemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().check(z.int()),
    code: z.string(),
    detail: z.string(),
    errors: z.optional(z.array(z.object({ path: z.string(), message: z.string() }))),
    request_id: z.string(),
  })
  .register(z.globalRegistry, { id: 'Problem' });

export const TimestampSchema = z.iso.datetime();
