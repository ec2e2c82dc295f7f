/**
 * The discovery bench (`npm run bench` runs it; alone: `npx tsx bench/discovery-run.ts`): a
 * run of the Okta connector over a large org (100,000 users and 5,000 groups by default) whose
 * fake enforces Okta's per-minute rate limits, then a second run over the unchanged org.
 *
 * Reported, for the record and as ratios:
 * - wall time of each run against the floor the rate limit sets (requests needed ÷ allowed
 *   rate, for the busiest bucket: the tracks read the buckets in parallel);
 * - peak memory (RSS) of the run worker, a process of its own bundled as the Lambda is (the
 *   org is served by another child process, the API by this one, DynamoDB Local is Java);
 * - inventory items written per entity (and what the second run wrote: nothing, if unchanged
 *   entities are never rewritten).
 *
 * Scale with BENCH_OKTA_USERS, BENCH_OKTA_GROUPS, BENCH_OKTA_APPS (a quick look: 10000/500/20).
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../shared/config';
import { setDeps } from '../shared/deps';
import { createDeps } from '../functions/start/deps-assembly';
import { createTenant } from '../shared/identity/tenants';
import { keys } from '../shared/store/keys';
import type { RunGraphMarker } from '../shared/access/run-graph-upkeep';
import { ensureTable, startDynamoDbLocal } from '../infra/local/dynamodb-local';
import { createLocalRunQueue } from '../infra/local/run-queue';
import { startLocalHost } from '../infra/local/server';
import { build } from 'esbuild';
import type { SQSEvent } from 'aws-lambda';
import type { QueueJobHandler } from '../shared/jobs/job';
import type { RunQueue } from '../shared/runs/run-queue';
import { oktaToken } from '../infra/local/stand-ins/okta';
import { expectedInventory, generateOrg, type OrgShape } from './okta-org';
import { interleavedLatency, printTable } from './measure';
import { printMustShow, type Criterion } from './must-show';

process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const shape: OrgShape = {
  users: Number(process.env.BENCH_OKTA_USERS ?? 100_000),
  groups: Number(process.env.BENCH_OKTA_GROUPS ?? 5_000),
  apps: Number(process.env.BENCH_OKTA_APPS ?? 100),
  groupsPerUser: 3,
  groupsPerApp: 5,
};
/** Okta's management rate limits for an Enterprise org (developer.okta.com, rl-global-mgmt), per minute. */
const LIMITS = { windowMs: 60_000, perBucket: { users: 600, groups: 600, apps: 100 } };
const PASSWORD = 'bench password that is long enough';
/** V8 old-space limit of the worker process: a 256 MB budget less the runtime's own needs. */
const WORKER_HEAP_MB = 160;

interface RunView {
  run_id: string;
  status: string;
  started_at: string;
  finished_at: string;
  counts: { entities: Record<string, number>; relationships: Record<string, number> };
  changes: Record<string, number>;
  stats: { steps: number; provider_requests: number; throttled_ms: number; items_written: number; items_deleted: number };
}

async function startOrgServer(): Promise<{ url: string; requests: Record<string, number>; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./okta-org-server.ts', import.meta.url)), JSON.stringify(shape), JSON.stringify(LIMITS)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the org server exited (${code})`)));
  });
  const ready = JSON.parse(line) as { url: string; requests: Record<string, number> };
  return { ...ready, stop: () => child.stdin.end() };
}

/**
 * The worker as its own process: bench/worker-process.ts bundled like the Lambda, fed SQS
 * events over IPC; what it queues comes back to the parent's queue. Its peak RSS is reported.
 */
async function startWorkerProcess(env: Record<string, string>, queue: () => RunQueue): Promise<{ handler: QueueJobHandler; peakMb: () => number; detail: () => string; stop: () => void }> {
  const outdir = fileURLToPath(new URL('./.build/', import.meta.url));
  mkdirSync(outdir, { recursive: true });
  const outfile = path.join(outdir, 'worker-process.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('./worker-process.ts', import.meta.url))],
    outfile, bundle: true, platform: 'node', target: 'node20', format: 'esm', packages: 'external', logLevel: 'silent',
  });
  // The heap a 256 MB function leaves V8 (this machine has far more memory, so V8 would
  // otherwise collect lazily and the RSS would say little about what the worker needs).
  const child: ChildProcess = fork(outfile, [], { env: { ...process.env, ...env }, execArgv: [`--max-old-space-size=${WORKER_HEAP_MB}`], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let peakKb = 0;
  let peakHeapKb = 0;
  let startRssKb = 0;
  let runsSeen = 0;
  let peakStep = '';
  let peakHeapStep = '';
  let nextId = 0;
  const pending = new Map<number, (failures: number) => void>();
  await new Promise<void>((resolve) => {
    child.on('message', (message: { kind: string; id?: number; failures?: number; maxRssKb?: number; heapUsedKb?: number; rssKb?: number; step?: string; message?: never; delaySeconds?: number }) => {
      if (message.kind === 'ready') {
        startRssKb = message.rssKb ?? 0;
        resolve();
      }
      if (message.kind === 'queue') void queue().send(message.message!, { delaySeconds: message.delaySeconds ?? 0 });
      if (message.kind === 'result') {
        if (message.step === 'run_step 0') runsSeen += 1;
        if ((message.maxRssKb ?? 0) > peakKb) peakStep = `${message.step ?? '?'} of run ${runsSeen}`;
        peakKb = Math.max(peakKb, message.maxRssKb ?? 0);
        if ((message.heapUsedKb ?? 0) > peakHeapKb) peakHeapStep = `${message.step ?? '?'} of run ${runsSeen}`;
        peakHeapKb = Math.max(peakHeapKb, message.heapUsedKb ?? 0);
        pending.get(message.id!)?.(message.failures ?? 1);
        pending.delete(message.id!);
      }
    });
  });
  const handler: QueueJobHandler = (event: SQSEvent) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, (failures) => resolve({ batchItemFailures: failures ? [{ itemIdentifier: event.Records[0]!.messageId }] : [] }));
      child.send({ kind: 'event', id, event });
    });
  return { handler, peakMb: () => peakKb / 1024, detail: () => `started at ${(startRssKb / 1024).toFixed(0)} MB RSS, peak reached in ${peakStep}; largest heap in use after a step ${(peakHeapKb / 1024).toFixed(0)} MB, after ${peakHeapStep}`, stop: () => child.kill() };
}

async function main() {
  const org = await startOrgServer();
  const dynamo = await startDynamoDbLocal({ sustained: true, startTimeoutMs: 180_000 });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tessera-bench-runs-'));
  const config = loadConfig({
    ...process.env,
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    TESSERA_TABLE: 'bench_runs',
    TESSERA_DATA_DIR: dataDir,
    PORT: '0',
    TESSERA_CONNECTOR_ENDPOINTS: JSON.stringify({ okta: org.url }),
  });
  const workerEnv = {
    DYNAMODB_ENDPOINT: dynamo.endpoint, TESSERA_TABLE: 'bench_runs', TESSERA_DATA_DIR: dataDir,
    TESSERA_CONNECTOR_ENDPOINTS: JSON.stringify({ okta: org.url }), POWERTOOLS_LOG_LEVEL: 'WARN', POWERTOOLS_METRICS_DISABLED: 'true',
  };
  // The worker queues its next steps through the parent's queue, made once the worker is up.
  const queueRef: { current?: RunQueue } = {};
  const worker = await startWorkerProcess(workerEnv, () => queueRef.current!);
  const runQueue = createLocalRunQueue({ workers: 1, handler: () => Promise.resolve(worker.handler) });
  queueRef.current = runQueue;
  const deps = await createDeps(config, { runQueue });
  await ensureTable(deps.db, config.tableName);
  setDeps(deps);
  const host = await startLocalHost({ port: 0 });
  try {
    const created = await createTenant(deps, { slug: 'bench', name: 'Bench', emailDomains: ['bench.test'], adminEmail: 'admin@bench.test', adminPassword: PASSWORD });
    await deps.table.put({ Item: { ...keys.mfaPolicy(created.tenant.id), tenant_id: created.tenant.id, mfa_mode: 'OFF', required_actions: [], created_at: '', updated_at: '' } });
    const call = async (method: string, p: string, token?: string, body?: unknown) => {
      const res = await fetch(`${host.url}${p}`, { method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
      if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
      return (await res.json()) as Record<string, unknown>;
    };
    const { access_token: session } = (await call('POST', '/v1/auth/login', undefined, { email: 'admin@bench.test', password: PASSWORD })) as { access_token: string };
    // A run outlasts an access token (15 minutes): the bench acts with a PAT, as a script would.
    const { token } = (await call('POST', '/v1/tokens', session, { name: 'bench', scopes: ['connections:read', 'connections:write', 'connections:run'] })) as { token: string };
    const connection = await call('POST', '/v1/connections', token, {
      integration_id: 'int_okta_discovery', name: 'bench okta', scope: {}, schedule: { type: 'daily', hour: 3, minute: 0 },
      configuration: { org_url: 'https://bench.okta.com', api_token: oktaToken },
    });
    const id = connection.connection_id as string;

    const expected = expectedInventory(generateOrg(shape));
    const entities = Object.values(expected.entities).reduce((a, b) => a + b, 0);
    const relationships = Object.values(expected.relationships).reduce((a, b) => a + b, 0);
    const floorSeconds = Math.max(...Object.entries(org.requests).map(([bucket, n]) => (n / LIMITS.perBucket[bucket as keyof typeof LIMITS.perBucket]) * 60));
    console.log(`Okta org: ${shape.users} users, ${shape.groups} groups, ${shape.apps} apps → ${entities} entities, ${relationships} relationships`);
    console.log(`Requests needed per bucket: ${JSON.stringify(org.requests)}; limits per minute ${JSON.stringify(LIMITS.perBucket)}; floor ${floorSeconds.toFixed(0)} s (busiest bucket)`);

    const runOnce = async (label: string) => {
      const started = performance.now();
      const run = (await call('POST', `/v1/connections/${id}/runs`, token)) as unknown as RunView;
      await runQueue.idle();
      const wallSeconds = (performance.now() - started) / 1000;
      const done = (await call('GET', `/v1/connections/${id}/runs/${run.run_id}`, token)) as unknown as RunView;
      const complete = sameCounts(done.counts, expected);
      console.log(
        `${label}: ${done.status}, ${wallSeconds.toFixed(0)} s = ×${(wallSeconds / floorSeconds).toFixed(2)} the floor; ${done.stats.steps} steps, ${done.stats.provider_requests} requests, ` +
          `${(done.stats.throttled_ms / 1000).toFixed(0)} s waiting for rate limits; items written ${done.stats.items_written} ` +
          `(${(done.stats.items_written / entities).toFixed(2)} per entity), deleted ${done.stats.items_deleted}; counts ${complete ? 'as expected' : `DIFFER: ${JSON.stringify(done.counts)}`}`,
      );
      return { done, wallSeconds };
    };
    const first = await runOnce('First run (empty inventory)');
    const second = await runOnce('Second run (unchanged org)');
    const peakMb = worker.peakMb();
    console.log(`Peak memory of the run worker process (bundled like the Lambda): ${peakMb.toFixed(0)} MB RSS (${worker.detail()}); the local host serving the API beside it: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
    console.log(
      `Inventory writes: first run ${(first.done.stats.items_written / entities).toFixed(2)} items per entity ` +
        `(${entities} entity items + ${relationships} relationship items, each relationship also one GSI1 entry); second run ${second.done.stats.items_written} items (${(second.done.stats.items_written / entities).toFixed(3)} per entity)`,
    );
    // The reads are a person's in the console: a fresh sign-in's access token, verified with the
    // published key alone (a PAT is looked up in the table at every request).
    const { access_token: reader } = (await call('POST', '/v1/auth/login', undefined, { email: 'admin@bench.test', password: PASSWORD })) as { access_token: string };
    const graph = await accessGraphFigures(deps, created.tenant.id, created.workspace.id, id, [first, second], (p) => call('GET', p, reader));
    console.log(`Ratios to the floor: first ×${(first.wallSeconds / floorSeconds).toFixed(2)}, second ×${(second.wallSeconds / floorSeconds).toFixed(2)} (target ≤ 1.2); peak ${peakMb.toFixed(0)} MB (target ≤ 256)`);
    printMustShow([...graph, { name: 'Run worker peak memory ≤ 256 MB', measured: peakMb, limit: 256, unit: 'MB' }], `issue 26, ${shape.users} users`);
  } finally {
    runQueue.stop();
    worker.stop();
    await host.close();
    deps.db.destroy();
    await dynamo.stop();
    org.stop();
  }
}

/**
 * The access graph on this org (issue 26): what it added to each run (its time, kept with the
 * run's marker, against the run's wall time), and the latency of `GET /v1/people?q=` and of a
 * person's access (a person in 3 groups) through the local host, against a raw DynamoDB Query
 * of one page (50 people) through the service's own client: taken in turn, five blocks of 40
 * of each after 50 of each, so that a machine whose load moves weighs on all three alike.
 */
async function accessGraphFigures(
  deps: Awaited<ReturnType<typeof createDeps>>,
  tenantId: string,
  workspaceId: string,
  connectionId: string,
  runs: { done: RunView; wallSeconds: number }[],
  get: (p: string) => Promise<Record<string, unknown>>,
): Promise<Criterion[]> {
  const extra = await Promise.all(
    runs.map(async ({ done, wallSeconds }) => {
      const marker = await deps.table.get<RunGraphMarker>(keys.runAccessGraph(tenantId, workspaceId, connectionId, done.run_id));
      const seconds = (marker?.ms ?? NaN) / 1000;
      return { seconds, share: seconds / wallSeconds };
    }),
  );
  const person = ((await get('/v1/people?q=user12345%40&limit=1')).people as { person_id: string }[])[0] ?? ((await get('/v1/people?limit=1')).people as { person_id: string }[])[0]!;
  const found = ((await get('/v1/people?q=user1')).people as unknown[]).length;
  const reached = ((await get(`/v1/people/${person.person_id}/access`)).access as unknown[]).length;
  const [raw, search, access] = await interleavedLatency(
    [
      { name: 'DynamoDB Query, one page of 50 people (baseline)', run: () => deps.table.queryRaw({ PK: keys.person(tenantId, workspaceId, 'x').PK, SKPrefix: 'PER#' }, { limit: 50 }) },
      { name: `GET /v1/people?q=user1 (${found} people)`, run: () => get('/v1/people?q=user1') },
      { name: `GET /v1/people/{id}/access (3 groups, ${reached} targets)`, run: () => get(`/v1/people/${person.person_id}/access`) },
    ],
    { warmup: 50, blocks: 5, perBlock: 40 },
  );
  console.log(`Access graph: first run +${extra[0]!.seconds.toFixed(1)} s (${(extra[0]!.share * 100).toFixed(1)} % of the run), second run +${extra[1]!.seconds.toFixed(2)} s (${(extra[1]!.share * 100).toFixed(2)} %); reads through the local host, in turn with the raw Query:`);
  printTable([raw!, search!, access!], raw!);
  return [
    { name: 'Access graph: first run\'s extra wall time ≤ 10 % of the run', measured: extra[0]!.share * 100, limit: 10, unit: '%' },
    { name: 'Access graph: second (unchanged) run\'s extra ≤ 2 %', measured: extra[1]!.share * 100, limit: 2, unit: '%' },
    { name: 'GET /v1/people?q= p50 ≤ 3 × raw Query of one page', measured: search!.p50 / raw!.p50, limit: 3 },
    { name: 'GET /v1/people/{id}/access p50 ≤ 5 × raw Query of one page', measured: access!.p50 / raw!.p50, limit: 5 },
  ];
}

const sortKeys = (o: Record<string, number>) => Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
const sameCounts = (a: RunView['counts'], b: RunView['counts']) => JSON.stringify(sortKeys(a.entities)) === JSON.stringify(sortKeys(b.entities)) && JSON.stringify(sortKeys(a.relationships)) === JSON.stringify(sortKeys(b.relationships));

await main();
