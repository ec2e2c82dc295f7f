/** Schemas shared by many routes: ids in paths, paging, problem answers. */
import * as z from 'zod';
import { idOf } from '../schemas/field-schemas';

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
