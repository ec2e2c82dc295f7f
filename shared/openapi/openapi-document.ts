/**
 * The OpenAPI 3.1 document, generated from the route table and its zod schemas (zod 4's
 * native JSON Schema output, draft 2020-12, which OpenAPI 3.1 uses as is).
 *
 * A schema is named with `.register(z.globalRegistry, { id })`, not with a `z.meta({ id })`
 * check: a check is run again on every schema derived from it (`z.extend`, a further `.check`),
 * which would carry the same name, and `z.partial` refuses an object with checks.
 *
 * zod puts the schemas it was told to name under `$defs` of each converted
 * schema and refers to them as `#/$defs/X`; in an OpenAPI document such a reference resolves
 * against the document root, where there is no `$defs`. So every named schema moves to
 * `components.schemas` (once, whichever route met it first) and its references are rewritten
 * to `#/components/schemas/X`: third-party tools (linters, validators, client generators,
 * mock servers) then resolve every reference of the document as served.
 */
import { isDeepStrictEqual } from 'node:util';
import * as z from 'zod/mini';
import { ProblemSchema } from '../http/common-schemas';
import { responseHeaders } from '../http/headers';
import { describeSessionOnlyField, type HeaderSpec, type RouteDefinition } from '../http/route';

type JsonSchema = Record<string, unknown>;
type Io = 'input' | 'output';

/** An example of a request body, shown by documentation tools and offered by client generators. */
export interface RequestExample {
  summary: string;
  value: unknown;
}

export interface OpenApiOptions {
  /** Request body examples per route (by its key in the route table), e.g. from the catalog. */
  requestExamples?: Record<string, Record<string, RequestExample>>;
}

const COMPONENT_REF = '#/components/schemas/';

/** Collects the named schemas of every conversion into one `components.schemas`. */
class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};

  /** The JSON Schema of `schema`, its named parts moved to the components and referenced there. */
  convert(schema: z.core.$ZodType, io: Io): JsonSchema {
    const { $defs, ...root } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema & { $defs?: Record<string, JsonSchema> };
    delete root.$schema; // the document's dialect (2020-12) holds for every schema in it
    for (const [name, definition] of Object.entries($defs ?? {})) this.add(name, rewriteRefs(definition) as JsonSchema);
    return rewriteRefs(root) as JsonSchema;
  }

  private add(name: string, definition: JsonSchema): void {
    const existing = this.schemas[name];
    // One id, one shape: a named schema used in a request (where defaults make fields
    // optional) as well as in an answer would need two names.
    if (existing !== undefined && !isDeepStrictEqual(existing, definition)) throw new Error(`Two different schemas are named ${name}: give one of them another id`);
    this.schemas[name] = definition;
  }
}

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value === null || typeof value !== 'object') return value;
  const out: JsonSchema = {};
  for (const [key, child] of Object.entries(value)) {
    out[key] = key === '$ref' && typeof child === 'string' && child.startsWith('#/$defs/') ? `${COMPONENT_REF}${child.slice('#/$defs/'.length)}` : rewriteRefs(child);
  }
  return out;
}

function parametersOf(route: RouteDefinition, components: SchemaComponents): JsonSchema[] {
  const params: JsonSchema[] = [];
  for (const [location, schema] of [['path', route.request?.params], ['query', route.request?.query]] as const) {
    if (!schema) continue;
    const json = components.convert(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      const { description, ...propertySchema } = property;
      params.push({
        name,
        in: location,
        required: location === 'path' || (json.required ?? []).includes(name),
        ...(typeof description === 'string' ? { description } : {}),
        schema: propertySchema,
      });
    }
  }
  for (const [name, spec] of Object.entries(route.request?.headers ?? {})) {
    params.push({ name, in: 'header', required: spec.required ?? false, description: spec.description, schema: components.convert(spec.schema, 'input') });
  }
  return params;
}

function headersOf(specs: Record<string, HeaderSpec> | undefined, components: SchemaComponents): JsonSchema | undefined {
  if (!specs || Object.keys(specs).length === 0) return undefined;
  return Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => [name, { description: spec.description, required: spec.required ?? false, schema: components.convert(spec.schema, 'output') }]),
  );
}

/** Every route can answer these, whatever its own list says (the contract's error table). */
const STANDARD_PROBLEMS: Record<string, string> = {
  '400': 'validation_failed or malformed_json: the request is not what this operation accepts (the problem\'s `errors` name each field)',
  '401': 'unauthenticated (no, or no longer valid, credential), invalid_credentials or mfa_required (this action needs a recent MFA)',
  '403': 'forbidden: the credential\'s role or scopes do not allow this',
  '413': 'payload_too_large: the body is over 64 KiB',
  '415': 'unsupported_media_type: a body sent with a Content-Type other than application/json (or a +json type), or with none',
  '429': 'rate_limited: too many attempts; retry after the time Retry-After gives',
  '500': 'internal_error',
};

/** Headers an error answer of that status carries (see shared/errors.ts). */
const PROBLEM_HEADERS: Record<string, Record<string, HeaderSpec>> = {
  '401': { 'WWW-Authenticate': responseHeaders.wwwAuthenticate },
  '429': { 'Retry-After': responseHeaders.retryAfter },
};

const TAG_DESCRIPTIONS: Record<string, string> = {
  service: 'Health, this document and the keys that verify access tokens',
  authentication: 'Local login, tokens, logout and password reset',
  sso: 'Tenant single sign-on (OIDC, SAML) and its configuration',
  mfa: 'TOTP enrollment, challenges, backup codes and the tenant MFA policy',
  tokens: 'Personal access tokens',
  permissions: 'The permission registry',
  users: 'The current user and the tenant\'s users',
  workspaces: 'Workspaces and their ownership',
  catalog: 'The integrations catalog',
  connections: 'Connections and their tests',
  runs: 'Discovery runs of a connection: start one, its history, what each run changed',
  inventory: 'What the runs of a connection discovered: entities and relationships',
  access: 'The access graph across connections: people, what they reach, who reaches an entity, access history',
  audit: 'Audit events',
  exports: 'CSV and NDJSON files of a list, made by a job: ask, poll, download',
};

/** The 403 of a route, with what a personal access token may not do there. */
function forbiddenDescription(route: RouteDefinition, description: string): string {
  if (route.sessionOnly === undefined) return description;
  if (route.sessionOnly === true) return `${description}; or the credential is a personal access token, which never manages credentials (sign in)`;
  const fields = route.sessionOnly.body.map(describeSessionOnlyField).join(', ');
  return `${description}; or the credential is a personal access token and the body sets any of ${fields}: these manage credentials (sign in)`;
}

export function buildOpenApiDocument(routes: Readonly<Record<string, RouteDefinition>>, serverUrl: string, options: OpenApiOptions = {}): JsonSchema {
  const components = new SchemaComponents();
  components.convert(ProblemSchema, 'output');
  const problemContent = { 'application/problem+json': { schema: { $ref: `${COMPONENT_REF}Problem` } } };
  const paths: Record<string, Record<string, JsonSchema>> = {};

  for (const [operationId, route] of Object.entries(routes)) {
    const responses: Record<string, JsonSchema> = {};
    const answer = (status: string, description: string, spec?: RouteDefinition['responses'][number]) => {
      const isError = Number(status) >= 400;
      const headers = headersOf({ ...(isError ? PROBLEM_HEADERS[status] : {}), ...spec?.headers }, components);
      const schema = !isError && spec?.schema ? spec.schema : undefined;
      const content = isError ? problemContent : schema ? Object.fromEntries([spec?.contentType ?? 'application/json'].flat().map((type) => [type, { schema: components.convert(schema, 'output') }])) : undefined;
      responses[status] = { description, ...(headers ? { headers } : {}), ...(content ? { content } : {}) };
    };
    for (const [status, spec] of Object.entries(route.responses)) answer(status, spec.description, spec);
    for (const [status, description] of Object.entries(STANDARD_PROBLEMS)) {
      if (responses[status] || (route.auth === 'public' && (status === '401' || status === '403'))) continue;
      // A form route (the SAML callback's post) refuses another type as a 400 of its own.
      if (status === '415' && route.request?.bodyEncoding === 'form') continue;
      answer(status, status === '403' ? forbiddenDescription(route, description) : description);
    }

    const body = route.request?.body;
    const examples = options.requestExamples?.[operationId];
    const mediaType = route.request?.bodyEncoding === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
    (paths[route.path] ??= {})[route.method.toLowerCase()] = {
      operationId,
      summary: route.summary,
      tags: [route.tag],
      // bearer_or_mfa_token: the pending login's mfa_token may come in the body instead.
      security: route.auth === 'public' ? [] : route.auth === 'bearer_or_mfa_token' ? [{ bearer: [] }, {}] : [{ bearer: [] }],
      ...(route.permission ? { 'x-permission': route.permission } : {}),
      ...(route.mfaAction ? { 'x-mfa-action': route.mfaAction } : {}),
      parameters: parametersOf(route, components),
      ...(body
        ? {
            requestBody: {
              // No body reads as `{}` (shared/http/middleware/json-body.ts): a body is required only when `{}` is refused.
              required: !z.safeParse(body, {}).success,
              content: { [mediaType]: { schema: components.convert(body, 'input'), ...(examples ? { examples } : {}) } },
            },
          }
        : {}),
      responses,
    };
  }

  const tags = [...new Set(Object.values(routes).map((r) => r.tag))].map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}) }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tessera API',
      version: '0.1.0',
      description: 'Integrations, connections and identity. Every error is RFC 9457 problem+json with a stable `code`.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Tessera-Proprietary' },
    },
    servers: [{ url: serverUrl }],
    tags,
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'A JWT access token, or a personal access token (tsr_pat_…)' } },
      schemas: components.schemas,
    },
  };
}
