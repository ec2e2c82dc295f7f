/**
 * Cold starts per function: every bundle imported in a fresh `node` process, then handed one
 * realistic event (an API Gateway v2 request through the whole middleware chain, against
 * DynamoDB Local; an SQS batch or a schedule tick for the jobs). Each figure is the median of
 * `BENCH_COLD_START_SAMPLES` (5) processes; the empty module and the DynamoDB floor are
 * measured the same way in the same run, beside every sample of every function.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { jobList } from '../functions/jobs';
import { DEFAULT_ROUTE_HANDLER, routeList } from '../functions/routes';
import { handlerBuildBase } from '../infra/bundle-options';
import { buildApiGatewayEvent } from '../infra/local/api-gateway-event';
import { DEFAULT_ROUTE_KEY } from '../shared/http/default-route-endpoint';
import { BUNDLE_DIR, type FunctionBundle } from './bundle-sizes';

const SAMPLES = Number(process.env.BENCH_COLD_START_SAMPLES ?? 5);

export interface ColdStart {
  importCpuMs: number;
  importWallMs: number;
  firstCpuMs: number;
  firstWallMs: number;
  /** What the first invocation answered (HTTP status, or the job's outcome), per sample when they differ. */
  status: string;
}

/** What the first requests need to pass authentication and find something. */
export interface ColdStartFixture {
  hostUrl: string;
  accessToken: string;
  tenantId: string;
  tenantSlug: string;
  userId: string;
  connectionId: string;
  loginBody: unknown;
  /** The Lambda-like environment of the probe processes (configuration, credentials). */
  env: Record<string, string>;
}

export async function buildProbe(): Promise<string> {
  const outfile = path.join(BUNDLE_DIR, '_probe.mjs');
  await build({ ...handlerBuildBase, entryPoints: [fileURLToPath(new URL('./cold-start-probe.ts', import.meta.url))], bundle: true, outfile, logLevel: 'silent' });
  return outfile;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function runProbe(probe: string, bundle: FunctionBundle, event: unknown, env: Record<string, string>): Promise<ColdStart> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [probe, bundle.file, bundle.name], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) resolve(JSON.parse(stdout) as ColdStart);
      else reject(new Error(`cold-start probe of ${bundle.name} exited with ${code}: ${stderr.slice(0, 2000)}`));
    });
    child.stdin.end(JSON.stringify({ event }));
  });
}

export async function measureColdStart(probe: string, bundle: FunctionBundle, event: unknown, env: Record<string, string>): Promise<ColdStart> {
  const samples: ColdStart[] = [];
  for (let i = 0; i < SAMPLES; i++) samples.push(await runProbe(probe, bundle, event, env));
  return summarize(samples);
}

function summarize(samples: readonly ColdStart[]): ColdStart {
  const statuses = [...new Set(samples.map((s) => s.status))];
  return {
    importCpuMs: median(samples.map((s) => s.importCpuMs)),
    importWallMs: median(samples.map((s) => s.importWallMs)),
    firstCpuMs: median(samples.map((s) => s.firstCpuMs)),
    firstWallMs: median(samples.map((s) => s.firstWallMs)),
    status: statuses.join('/'),
  };
}

/** A function's cold start with the references measured beside each of its samples. */
export interface ColdStartAgainstReferences extends ColdStart {
  /** Median over the samples of the import CPU minus the empty module's measured beside it. */
  initCpuMs: number;
  /** Median over the samples of the floor's import CPU minus the empty module's, measured beside it. */
  floorInitCpuMs: number;
  /** Median over the samples of initCpu / floorInitCpu, each sample against its own references. */
  initRatio: number;
}

/**
 * Each sample of the function runs right after one of the empty module and one of the floor,
 * and is judged against those two: a machine's speed drifts over a run's minutes (other
 * tenants, clocks), and references measured minutes apart judged functions against another
 * machine (the floor's import CPU moved between 41 and 72 ms within one run).
 */
export async function measureAgainstReferences(
  probe: string,
  bundle: FunctionBundle,
  event: unknown,
  references: { empty: FunctionBundle; floor: FunctionBundle },
  env: Record<string, string>,
): Promise<ColdStartAgainstReferences> {
  const samples: { own: ColdStart; initCpuMs: number; floorInitCpuMs: number }[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const empty = await runProbe(probe, references.empty, {}, env);
    const floor = await runProbe(probe, references.floor, {}, env);
    const own = await runProbe(probe, bundle, event, env);
    samples.push({ own, initCpuMs: own.importCpuMs - empty.importCpuMs, floorInitCpuMs: floor.importCpuMs - empty.importCpuMs });
  }
  return {
    ...summarize(samples.map((s) => s.own)),
    initCpuMs: median(samples.map((s) => s.initCpuMs)),
    floorInitCpuMs: median(samples.map((s) => s.floorInitCpuMs)),
    initRatio: median(samples.map((s) => s.initCpuMs / s.floorInitCpuMs)),
  };
}

/**
 * The event of a function's first invocation. Reads get the ids of real items; anything that
 * writes gets ids that do not exist (or an empty body), so that the samples do not change what
 * the next one finds; those answer 400 or 404 after authentication, validation and lookups.
 */
export function coldStartEvent(handler: string, fixture: ColdStartFixture): unknown {
  const job = jobList.find((j) => j.handler === handler);
  if (job) {
    if (job.trigger.kind === 'queue') return { Records: [] };
    return { version: '0', id: randomUUID(), 'detail-type': 'Scheduled Event', source: 'aws.events', account: '000000000000', time: new Date().toISOString(), region: 'us-east-1', resources: [], detail: {} };
  }
  const host = new URL(fixture.hostUrl);
  const headers = ['host', host.host, 'user-agent', 'tessera-bench', 'accept', 'application/json'];
  const eventOf = (method: string, target: string, body: string, routeKey: string, pathParameters: Record<string, string>) =>
    buildApiGatewayEvent(
      { method, target, rawHeaders: headers, body: Buffer.from(body), sourceIp: '127.0.0.1', peerIp: '127.0.0.1', localPort: Number(host.port), httpVersion: '1.1' },
      { routeKey, pathParameters, requestId: randomUUID(), now: new Date() },
    );
  // A path no route has: what API Gateway hands the `$default` route.
  if (handler === DEFAULT_ROUTE_HANDLER) return eventOf('GET', '/v1/bench-no-such-route', '', DEFAULT_ROUTE_KEY, {});
  const route = routeList.find((r) => r.handler === handler);
  if (!route) throw new Error(`no route or job for ${handler}`);
  const reads = route.method === 'GET';
  const pathParameters: Record<string, string> = {};
  const rawPath = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value =
      name === 'tenant' ? fixture.tenantSlug
      : name === 'id' && route.path.startsWith('/v1/tenants/') ? fixture.tenantId
      : name === 'id' && reads && route.path.startsWith('/v1/connections/') ? fixture.connectionId
      : name === 'id' && reads && route.path.startsWith('/v1/users/') ? fixture.userId
      : 'bench0000000000000';
    pathParameters[name] = value;
    return value;
  });
  const body = route.handler === 'auth-login' ? JSON.stringify(fixture.loginBody) : reads ? '' : '{}';
  if (body) headers.push('content-type', 'application/json');
  if (route.auth !== 'public') headers.push('authorization', `Bearer ${fixture.accessToken}`);
  return eventOf(route.method, rawPath, body, `${route.method} ${route.path}`, pathParameters);
}
