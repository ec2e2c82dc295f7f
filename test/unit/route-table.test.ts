/**
 * The route table (and the job table beside it) and the `functions/` folder agree: every entry
 * names a handler module that exists, every handler module is routed or a job, and no route key
 * is listed twice.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { jobList } from '../../functions/jobs';
import { routeList } from '../../functions/routes';

const functionsDir = fileURLToPath(new URL('../../functions/', import.meta.url));
const TABLE_MODULES = ['routes.ts', 'jobs.ts'];

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
    const routed = new Set([...routeList.map((r) => r.handler), ...jobList.map((j) => j.handler)]);
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
});
