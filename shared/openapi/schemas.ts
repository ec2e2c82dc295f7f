/** The shape of what `GET /v1/openapi.json` answers, for that route's own entry in the document. */
import * as z from 'zod/mini';

export const OpenApiDocumentSchema = z
  .looseObject({
    openapi: z.string().check(z.regex(/^3\.1\.\d+$/)),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
  })
  .check(z.meta({ description: 'An OpenAPI 3.1 document' }));
