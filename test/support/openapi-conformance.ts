/**
 * Checks real answers against the OpenAPI document the server serves, with Ajv (JSON Schema
 * draft 2020-12, the dialect of OpenAPI 3.1): the status must be documented for the
 * operation, the content type must be one it documents (or none, when it documents none),
 * the body must match the schema, required headers must be there and every header the API
 * gives meaning to (ETag, Location, Retry-After, WWW-Authenticate) must be documented where it
 * appears. Violations are collected, not thrown, so one run lists them all.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { HttpResponse } from './http-client';

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => void;

type JsonObject = Record<string, unknown>;

interface HeaderObject {
  required?: boolean;
  schema?: JsonObject;
}
interface ResponseObject {
  headers?: Record<string, HeaderObject>;
  content?: Record<string, { schema?: JsonObject }>;
}

/** Headers whose presence means something to a client: documented wherever they appear. */
const MEANINGFUL_HEADERS = ['etag', 'location', 'retry-after', 'www-authenticate'];

const DOCUMENT_ID = 'https://tessera.invalid/openapi.json';

const pointer = (...segments: string[]) => `#/${segments.map((s) => s.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;

export class OpenApiConformance {
  readonly violations: string[] = [];
  /** `operationId status` of every answer checked. */
  readonly answers: { operationId: string; status: number }[] = [];
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly document: JsonObject) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats(this.ajv);
    // The whole document as one schema resource, so `#/components/schemas/X` resolves as in the document.
    this.ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  }

  private validator(ref: string): ValidateFunction {
    let validate = this.compiled.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}${ref}` });
      this.compiled.set(ref, validate);
    }
    return validate;
  }

  private operation(method: string, path: string): { operationId: string; responses: Record<string, ResponseObject> } | undefined {
    const paths = this.document.paths as Record<string, Record<string, { operationId: string; responses: Record<string, ResponseObject> }>>;
    return paths[path]?.[method.toLowerCase()];
  }

  /** Checks one answer of the operation `method path` (the path as the document writes it). */
  check(method: string, path: string, res: HttpResponse, what: string): void {
    const operation = this.operation(method, path);
    const fail = (message: string): void => {
      this.violations.push(`${method} ${path} → ${res.status} (${what}): ${message}`);
    };
    if (!operation) return fail('the document has no such operation');
    this.answers.push({ operationId: operation.operationId, status: res.status });
    const status = String(res.status);
    const documented = operation.responses[status] ?? operation.responses.default;
    if (!documented) return fail(`status ${status} is not documented (documented: ${Object.keys(operation.responses).join(', ')})`);

    const base = ['paths', path, method.toLowerCase(), 'responses', operation.responses[status] ? status : 'default'];
    const contentType = (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (!documented.content) {
      if (res.text !== '') fail(`the document says no content, the answer has ${contentType || 'an untyped'} body`);
    } else if (!Object.hasOwn(documented.content, contentType)) {
      fail(`content type ${contentType || '(none)'} is not documented (documented: ${Object.keys(documented.content).join(', ')})`);
    } else if (documented.content[contentType]!.schema) {
      const isJson = /(^|\+)json$/.test(contentType.split('/')[1] ?? '');
      let body: unknown = res.text;
      if (isJson) {
        try {
          body = JSON.parse(res.text);
        } catch {
          return fail('the body is not JSON');
        }
      }
      const validate = this.validator(pointer(...base, 'content', contentType, 'schema'));
      if (!validate(body)) fail(`body: ${this.ajv.errorsText(validate.errors, { separator: '; ', dataVar: 'body' })}`);
    }

    const headers = documented.headers ?? {};
    const documentedNames = new Map(Object.keys(headers).map((name) => [name.toLowerCase(), name]));
    for (const [name, header] of Object.entries(headers)) {
      const value = res.headers[name.toLowerCase()];
      if (value === undefined) {
        if (header.required) fail(`required header ${name} is missing`);
        continue;
      }
      if (header.schema) {
        const type = header.schema.type;
        const typed = type === 'integer' || type === 'number' ? Number(value) : value;
        const validate = this.validator(pointer(...base, 'headers', name, 'schema'));
        if (!validate(typed)) fail(`header ${name}: ${this.ajv.errorsText(validate.errors, { dataVar: name })}`);
      }
    }
    for (const name of MEANINGFUL_HEADERS) {
      if (res.headers[name] !== undefined && !documentedNames.has(name)) fail(`header ${name} is answered but not documented for ${status}`);
    }
  }
}
