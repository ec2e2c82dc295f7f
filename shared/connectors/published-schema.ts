/**
 * The JSON Schema a catalog entry publishes for its configuration or scope: generated from the
 * very zod schema that validates requests, so the two cannot drift.
 */
import * as z from 'zod/mini';

export type JsonSchema = Record<string, unknown>;

/**
 * Draft 2020-12, describing what a client sends (`io: 'input'`), with the one valid example.
 * Field metadata (`description`, `writeOnly`, `uniqueItems`...) comes from `z.meta()`; anything
 * zod cannot express in JSON Schema throws here, at catalog build, rather than being dropped.
 */
export function publishedJsonSchema(schema: z.core.$ZodType, example: unknown): JsonSchema {
  return { ...z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'throw' }), examples: [example] };
}
