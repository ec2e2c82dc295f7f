/** Schemas shared by many routes: ids in paths, paging, problem answers. */
import * as z from 'zod';

/** An opaque id of a given type: `usr_...`, `ws_...`. */
export const idOf = (prefix: string) =>
  z.string().regex(new RegExp(`^${prefix}_[0-9a-z]{10,40}$`), { message: `must be an id that starts with ${prefix}_ followed by 10 to 40 lowercase letters or digits` });

/**
 * A name or other free text a person gives (a workspace, a connection, a token): trimmed, and
 * without control characters (NUL, ESC, line breaks), which would corrupt logs, terminals and
 * CSV exports downstream. The one schema every such field uses.
 */
export const DisplayText = (maxLength: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(maxLength)
    .regex(/^[^\p{Cc}\u2028\u2029]*$/u, { message: 'must not contain control characters' });

export const IdPathSchema = (prefix: string) => z.strictObject({ id: idOf(prefix) });
/** `/v1/tenants/{id}/…`: the id must be the caller's own tenant (checked by the use case, 403). */
export const TenantPathSchema = IdPathSchema('ten');

export const PageQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().min(1).max(2048).optional(),
});

export const ProblemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    code: z.string(),
    detail: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    request_id: z.string(),
  })
  .meta({ id: 'Problem' });

export const TimestampSchema = z.iso.datetime();
