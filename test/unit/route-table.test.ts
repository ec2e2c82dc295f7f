/**
 * The route table (and the job table beside it) and the `functions/` folder agree: every entry
 * names a handler module that exists, every handler module is routed or a job, and no route key
 * is listed twice. The table is gathered from one module per route (`functions/routes/<handler>.ts`):
 * every such module is in the table, and every handler imports its own route module and not
 * the table, so that its bundle carries no other route (test/infra/route-bundles.test.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { jobList } from '../../functions/jobs';
import { DEFAULT_ROUTE_HANDLER, routeList } from '../../functions/routes';
import { endpoint, readEndpoint, takesCursor } from '../../shared/http/endpoint';
import { listEndpoint, listReadEndpoint } from '../../shared/http/list-endpoint';
import { publicEndpoint } from '../../shared/http/public-endpoint';
import type { RouteDefinition } from '../../shared/http/route';

const functionsDir = fileURLToPath(new URL('../../functions/', import.meta.url));
const routesDir = path.join(functionsDir, 'routes');
const TABLE_MODULES = ['jobs.ts', 'handlers.ts'];
/** The one route that serves the whole table (the OpenAPI document is built from it). */
const READS_WHOLE_TABLE = 'openapi';

const tsModules = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
const routeModuleNames = tsModules(routesDir).filter((f) => f !== 'index.ts').map((f) => f.slice(0, -'.ts'.length));

describe('route table', () => {
  it('names an existing functions/<handler>.ts for every entry', () => {
    const missing = routeList.filter((r) => !existsSync(path.join(functionsDir, `${r.handler}.ts`))).map((r) => `${r.method} ${r.path} → functions/${r.handler}.ts`);
    expect(missing).toEqual([]);
  });

  it('names an existing functions/<handler>.ts for every job, and no job is also a route', () => {
    expect(jobList.filter((j) => !existsSync(path.join(functionsDir, `${j.handler}.ts`))).map((j) => j.handler)).toEqual([]);
    const routed = new Set(routeList.map((r) => r.handler));
    expect(jobList.filter((j) => routed.has(j.handler)).map((j) => j.handler)).toEqual([]);
  });

  it('routes every handler module in functions/ (or runs it as a job)', () => {
    const routed = new Set([...routeList.map((r) => r.handler), DEFAULT_ROUTE_HANDLER, ...jobList.map((j) => j.handler)]);
    const modules = readdirSync(functionsDir).filter((f) => f.endsWith('.ts') && !TABLE_MODULES.includes(f) && !f.endsWith('.d.ts'));
    const unrouted = modules.filter((f) => !routed.has(f.slice(0, -'.ts'.length)));
    expect(unrouted).toEqual([]);
  });

  it('lists each METHOD path once, in API Gateway path syntax under /v1', () => {
    const keys = routeList.map((r) => `${r.method} ${r.path}`);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
    for (const route of routeList) {
      expect(route.path).toMatch(/^\/v1(\/([A-Za-z0-9._-]+|\{[A-Za-z][A-Za-z0-9_]*\}))+$/);
      expect(route.handler).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    }
  });

  it('holds every route module of functions/routes/, each once, named after its handler', async () => {
    const modules = await Promise.all(
      routeModuleNames.map(async (name) => ({ name, route: ((await import(pathToFileURL(path.join(routesDir, `${name}.ts`)).href)) as { route?: RouteDefinition }).route })),
    );
    expect(modules.filter((m) => m.route === undefined).map((m) => m.name)).toEqual([]);
    expect(modules.filter((m) => !routeList.includes(m.route!)).map((m) => `functions/routes/${m.name}.ts is not in the table`)).toEqual([]);
    expect(modules.filter((m) => m.route!.handler !== m.name).map((m) => `functions/routes/${m.name}.ts routes handler ${m.route!.handler}`)).toEqual([]);
    expect(modules).toHaveLength(routeList.length);
  });

  it('has each routed handler import its own route module, and no handler but openapi the table', () => {
    const wrong = routeList.flatMap((route) => {
      const source = readFileSync(path.join(functionsDir, `${route.handler}.ts`), 'utf8');
      const imports = [...source.matchAll(/from '(\.\/routes(?:\/[^']*)?)'/g)].map((m) => m[1]);
      const expected = [`./routes/${route.handler}`, ...(route.handler === READS_WHOLE_TABLE ? ['./routes'] : [])];
      return imports.sort().join() === expected.sort().join() && /\b(?:endpoint|listEndpoint|listReadEndpoint|readEndpoint|publicEndpoint)\(route\b/.test(source) ? [] : [`functions/${route.handler}.ts imports ${imports.join(', ') || 'no route'}`];
    });
    expect(wrong).toEqual([]);
  });

  it('has the $default route\'s function read the whole table, through the one chain for what no route takes', () => {
    const source = readFileSync(path.join(functionsDir, `${DEFAULT_ROUTE_HANDLER}.ts`), 'utf8');
    expect([...source.matchAll(/from '(\.\/routes(?:\/[^']*)?)'/g)].map((m) => m[1])).toEqual(['./routes']);
    expect(source).toMatch(/\bdefaultRouteEndpoint\(routeList\)/);
    expect(routeList.some((r) => r.handler === DEFAULT_ROUTE_HANDLER)).toBe(false);
  });

  it('serves every route that takes a cursor with listEndpoint, and only those', () => {
    const paging = routeList.filter(takesCursor);
    expect(paging.length).toBeGreaterThan(10);
    const wrong = routeList.flatMap((route) => {
      const source = readFileSync(path.join(functionsDir, `${route.handler}.ts`), 'utf8');
      const served = /\b(?:listEndpoint|listReadEndpoint)\(route\b/.test(source);
      return served === takesCursor(route) ? [] : [`functions/${route.handler}.ts ${served ? 'pages a route without cursor' : 'does not page a route with a cursor'}`];
    });
    expect(wrong).toEqual([]);
  });

  it('names as session-only body fields only fields of the route\'s body, with values the body accepts', () => {
    const partly = routeList.filter((route) => typeof route.sessionOnly === 'object');
    expect(partly.map((r) => `${r.method} ${r.path}`).sort()).toEqual(['PATCH /v1/users/{id}', 'POST /v1/users']);
    const wrong = partly.flatMap((route) => {
      const body = route.request?.body as { _zod?: { def?: { shape?: Record<string, z.core.$ZodType> } } } | undefined;
      const shape = body?._zod?.def?.shape ?? {};
      const fields = route.sessionOnly === true || route.sessionOnly === undefined ? [] : route.sessionOnly.body;
      return fields.flatMap((field) => {
        const name = typeof field === 'string' ? field : field.name;
        const schema = shape[name];
        if (!schema) return [`${route.method} ${route.path}: ${name} is not a body field`];
        if (typeof field !== 'string' && !z.safeParse(schema, field.value).success) return [`${route.method} ${route.path}: ${name} never takes ${JSON.stringify(field.value)}`];
        return [];
      });
    });
    expect(wrong).toEqual([]);
  });

  it('serves every public route with publicEndpoint, and only those', () => {
    const open = routeList.filter((route) => route.auth === 'public');
    expect(open.length).toBeGreaterThan(5);
    const wrong = routeList.flatMap((route) => {
      const source = readFileSync(path.join(functionsDir, `${route.handler}.ts`), 'utf8');
      const served = /\bpublicEndpoint\(route\b/.test(source);
      return served === (route.auth === 'public') ? [] : [`functions/${route.handler}.ts ${served ? 'serves a route that takes a credential without its checks' : 'is public but not a publicEndpoint'}`];
    });
    expect(wrong).toEqual([]);
  });

  it('refuses to build a public route with endpoint, or one that takes a credential with publicEndpoint', () => {
    const open = routeList.find((route) => route.auth === 'public')!;
    const guarded = routeList.find((route) => route.auth === 'bearer' && !takesCursor(route))!;
    const answer = () => ({ statusCode: 200 });
    expect(() => endpoint(open, answer)).toThrow('use publicEndpoint');
    expect(() => publicEndpoint(guarded as RouteDefinition & { auth: 'public' }, answer)).toThrow('use endpoint');
  });

  it('refuses to build a list route with endpoint or readEndpoint, or a plain route with listEndpoint or listReadEndpoint', () => {
    const paging = routeList.find(takesCursor)! as RouteDefinition & { auth: 'bearer' };
    const plain = routeList.find((route) => !takesCursor(route) && route.auth !== 'public')! as RouteDefinition & { auth: 'bearer' };
    const answer = () => ({ statusCode: 200 });
    const read = () => ({ key: { PK: 'P', SK: 'S' }, found: () => ({}) });
    expect(() => endpoint(paging, answer)).toThrow('use listEndpoint');
    expect(() => readEndpoint(paging, read, answer)).toThrow('use listEndpoint');
    expect(() => listEndpoint(plain, answer)).toThrow('use endpoint');
    expect(() => listReadEndpoint(plain, read, answer)).toThrow('use readEndpoint');
  });
});

