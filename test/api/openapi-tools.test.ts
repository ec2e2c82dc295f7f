/**
 * The OpenAPI document as served (`GET /v1/openapi.json`), put through the third-party tools
 * a user would bring: Redocly CLI's lint (its recommended rules), swagger-parser's validation
 * (which dereferences every `$ref`), and openapi-typescript, whose generated types must
 * type-check with a small program that uses them as a client would.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/http-client';
import { startTestHost, type TestHost } from '../support/test-host';

let host: TestHost;
let dir: string;
let document: Record<string, unknown>;
let documentPath: string;

beforeAll(async () => {
  host = await startTestHost();
  dir = await mkdtemp(path.join(tmpdir(), 'tessera-openapi-'));
  const res = await api(host.url).request('GET', '/v1/openapi.json');
  expect(res.status).toBe(200);
  document = res.body as Record<string, unknown>;
  documentPath = path.join(dir, 'openapi.json');
  await writeFile(documentPath, res.text);
});
afterAll(async () => {
  await host?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function run(command: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // No telemetry and no update check: the tool runs offline, as in CI.
    const child = spawn(command, args, { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

interface RedoclyReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

describe('the served OpenAPI document, through third-party tools', () => {
  it('Redocly CLI lint (recommended rules): no errors', async () => {
    const cli = path.join(path.dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
    const result = await run(process.execPath, [cli, 'lint', documentPath, '--format=json']);
    const report = JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))) as RedoclyReport;
    const errors = report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    expect(errors).toEqual([]);
    expect(report.totals.errors).toBe(0);
    expect(result.code).toBe(0);
    // The only warnings allowed: redirects are the success of the SSO routes (no 2xx there).
    expect(report.problems.filter((p) => p.ruleId !== 'operation-2xx-response').map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
  });

  it('swagger-parser validates it and resolves every reference', async () => {
    const parsed = await SwaggerParser.validate(structuredClone(document) as never);
    expect(Object.keys(parsed.paths ?? {})).toEqual(Object.keys(document.paths as object));
    // Dereferenced: the Problem schema reached through a $ref of an error answer.
    const dereferenced = (await SwaggerParser.dereference(structuredClone(document) as never)) as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: { properties: Record<string, unknown> } }> }> }>>;
    };
    expect(Object.keys(dereferenced.paths['/v1/me']!.get!.responses['401']!.content['application/problem+json']!.schema.properties)).toContain('request_id');
  });

  it('openapi-typescript generates types that a small client program type-checks against', async () => {
    const types = astToString(await openapiTS(structuredClone(document) as never));
    await writeFile(path.join(dir, 'tessera-api.d.ts'), types);
    // What a client writes: typed paths, bodies and answers; the @ts-expect-error lines prove
    // the types are real (a mistake is an error), not `any`.
    await writeFile(
      path.join(dir, 'client.ts'),
      `import type { components, paths } from './tessera-api';

type Json<P extends keyof paths, M extends keyof paths[P]> = paths[P][M];
type Created = Json<'/v1/connections', 'post'> extends { responses: { 201: { content: { 'application/json': infer C } } } } ? C : never;
type CreateBody = Json<'/v1/connections', 'post'> extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;

export async function createConnection(baseUrl: string, token: string, body: CreateBody, idempotencyKey: string): Promise<Created> {
  const res = await fetch(new URL('/v1/connections', baseUrl), {
    method: 'POST',
    headers: { authorization: \`Bearer \${token}\`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(((await res.json()) as components['schemas']['Problem']).detail);
  return (await res.json()) as Created;
}

export const body: CreateBody = { integration_id: 'int_okta_discovery', name: 'Okta', scope: {}, schedule: { type: 'daily', hour: 2, minute: 30 }, configuration: {} };
// @ts-expect-error: the schedule type is an enum of one value
export const wrongSchedule: CreateBody = { ...body, schedule: { type: 'weekly', hour: 2, minute: 30 } };
export const status = (c: Created): 'healthy' | 'degraded' | 'unknown' => c.status;
// @ts-expect-error: a connection answer never carries its configuration
export const secret = (c: Created) => c.configuration;
export const me = (m: components['schemas']['Me']): boolean => m.mfa_enrolled;
type IfMatch = paths['/v1/connections/{id}']['patch']['parameters']['header'];
export const ifMatch: IfMatch = { 'If-Match': '"v1"' };
`,
    );
    const program = ts.createProgram([path.join(dir, 'client.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
      skipLibCheck: false,
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
    expect(types).toContain('"/v1/connections/{id}"');
  });
});
