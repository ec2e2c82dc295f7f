/** Schemas shared by many routes: ids in paths, paging, problem answers. */
import * as z from 'zod/mini';
import { idOf } from '../schemas/field-schemas';

export const IdPathSchema = (prefix: string) => z.strictObject({ id: idOf(prefix) });
/** `/v1/tenants/{id}/…`: the id must be the caller's own tenant (checked by the use case, 403). */
export const TenantPathSchema = IdPathSchema('ten');

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
