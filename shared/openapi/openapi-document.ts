/**
 * The OpenAPI 3.1 document, generated from the route table and its zod schemas (zod 4's
 * native JSON Schema output, draft 2020-12, which OpenAPI 3.1 uses as is).
 */
import * as z from 'zod';
import { ProblemSchema } from '../http/common-schemas';
import type { RouteDefinition } from '../http/route';

type JsonSchema = Record<string, unknown>;

const toSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return json;
};

function parametersOf(route: RouteDefinition): JsonSchema[] {
  const params: JsonSchema[] = [];
  for (const [location, schema] of [['path', route.request?.params], ['query', route.request?.query]] as const) {
    if (!schema) continue;
    const json = toSchema(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      params.push({ name, in: location, required: location === 'path' || (json.required ?? []).includes(name), schema: property });
    }
  }
  return params;
}

const STANDARD_PROBLEMS: Record<string, string> = {
  '400': 'validation_failed or malformed_json',
  '401': 'unauthenticated, invalid_credentials or mfa_required',
  '403': 'forbidden',
  '413': 'payload_too_large',
  '429': 'rate_limited',
  '500': 'internal_error',
};

export function buildOpenApiDocument(routes: readonly RouteDefinition[], serverUrl: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };
  for (const route of routes) {
    const responses: Record<string, JsonSchema> = {};
    for (const [status, spec] of Object.entries(route.responses)) {
      const isError = Number(status) >= 400;
      responses[status] = {
        description: spec.description,
        ...(isError ? { content: problem } : spec.schema ? { content: { [spec.contentType ?? 'application/json']: { schema: toSchema(spec.schema, 'output') } } } : {}),
      };
    }
    for (const [status, description] of Object.entries(STANDARD_PROBLEMS)) {
      if (route.auth === 'public' && (status === '401' || status === '403') && !responses[status]) continue;
      responses[status] ??= { description, content: problem };
    }
    const body = route.request?.body;
    (paths[route.path] ??= {})[route.method.toLowerCase()] = {
      operationId: route.handler,
      summary: route.summary,
      tags: [route.tag],
      ...(route.auth !== 'public' ? { security: [{ bearer: [] }] } : { security: [] }),
      ...(route.permission ? { 'x-permission': route.permission } : {}),
      ...(route.mfaAction ? { 'x-mfa-action': route.mfaAction } : {}),
      parameters: parametersOf(route),
      ...(body ? { requestBody: { required: true, content: { [route.request?.bodyEncoding === 'form' ? 'application/x-www-form-urlencoded' : 'application/json']: { schema: toSchema(body, 'input') } } } } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Tessera API', version: '0.1.0', description: 'Integrations, connections and identity. Errors are RFC 9457 problem+json.' },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'A JWT access token, or a personal access token (tsr_pat_…)' } },
      schemas: { Problem: toSchema(ProblemSchema, 'output') },
    },
  };
}
