/**
 * `npm run bench`: latency of the hot paths against a baseline measured in the same run
 * (a raw DynamoDB Local GetItem), login throughput against Argon2id alone, the cold start of
 * every function (bundle size, import time and first request, against an empty module and the
 * DynamoDB floor), the "Must show" criteria of issue 12, then the discovery runs and the
 * dispatcher with 10,000 connections due in one minute (bench/dispatcher.ts).
 * `npm run bench -- --cold-start` runs the cold-start part alone (with the two latencies and the
 * login throughput its criteria need).
 *
 * Everything runs on this machine: DynamoDB Local, the local host with the real handlers, and
 * the client. Figures are ratios to the baseline, so they compare across machines; absolute
 * milliseconds are printed beside them for the record.
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient, GetItemCommand, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { integrations } from '../shared/connectors/catalog';
import { loadConfig } from '../shared/config';
import { verifyPassword, hashPassword } from '../shared/crypto/passwords';
import { setDeps } from '../shared/deps';
import { createDeps } from '../functions/start/deps-assembly';
import { createTenant } from '../shared/identity/tenants';
import { keys } from '../shared/store/keys';
import { handler as loginHandler } from '../functions/auth-login';
import { handler as connectionGetHandler } from '../functions/connections-get';
import { envelopeKeyUses, passwordHashingHandlers, providerCallingHandlers, samlSchemaValidatorHandlers } from '../infra/handler-capabilities';
import { ensureTable, startDynamoDbLocal } from '../infra/local/dynamodb-local';
import { lambdaContext } from '../infra/local/lambda-context';
import { startLocalHost } from '../infra/local/server';
import { functionHandlers } from '../functions/handlers';
import { buildFunctionBundle, buildReferenceBundle, layerZippedBytes, type FunctionBundle } from './bundle-sizes';
import { buildProbe, coldStartEvent, measureAgainstReferences, measureColdStart, type ColdStart, type ColdStartAgainstReferences, type ColdStartFixture } from './cold-start';
import { interleavedLatency, latency, printTable, type Row } from './measure';
import { printMustShow, worstOf, type Criterion } from './must-show';

process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 300);
const LOGIN_ITERATIONS = Number(process.env.BENCH_LOGIN_ITERATIONS ?? 40);
/**
 * Logins before the throughput is measured, and logins measured. Throughput per core is what a
 * warm environment sustains: V8 keeps compiling the login path's functions for the first few
 * hundred logins (on its background threads, which count in this process's CPU), a one-time
 * cost of each environment that the cold-start part measures, not a cost per login.
 */
const THROUGHPUT_WARMUP = Number(process.env.BENCH_THROUGHPUT_WARMUP ?? 400);
const THROUGHPUT_LOGINS = Number(process.env.BENCH_THROUGHPUT_LOGINS ?? 150);
const THROUGHPUT_BLOCKS = 5;
/** Calls of the GET handler and of the raw GetItem before the warm GET is measured (see THROUGHPUT_WARMUP). */
const WARM_GET_WARMUP = Number(process.env.BENCH_WARM_GET_WARMUP ?? 500);
const PASSWORD = 'bench password that is long enough';
const COLD_START_ONLY = process.argv.includes('--cold-start');

/** Issue 12: the functions whose init must stay within 1.5 × the floor (`/me`, connections CRUD, tokens, login, MFA). */
const COMMON_FUNCTIONS = new Set([
  'me-get',
  'connections-create', 'connections-get', 'connections-list', 'connections-update', 'connections-delete',
  'tokens-create', 'tokens-list', 'tokens-rotate', 'tokens-revoke', 'auth-token',
  'auth-login',
  'mfa-enroll-start', 'mfa-enroll-confirm', 'mfa-challenge', 'mfa-backup-codes-regen', 'mfa-policy-get', 'mfa-policy-update',
]);
const TOTAL_ZIPPED_LIMIT_BYTES = 10_000_000;

/**
 * The bundle-size classes (issue 27), each function in the first class it belongs to, from what
 * infra/handler-capabilities.ts (checked against the bundles by test/infra) and the bundle say.
 */
const BUNDLE_CLASSES = [
  { name: 'the assertion consumer', limit: 2.25, has: (m: { name: string }) => samlSchemaValidatorHandlers.has(m.name) },
  { name: 'Argon2 or SAML', limit: 2, has: (m: { name: string; speaksSaml: boolean }) => passwordHashingHandlers.has(m.name) || m.speaksSaml },
  { name: 'calls providers', limit: 1.8, has: (m: { name: string }) => providerCallingHandlers.has(m.name) },
  { name: 'encrypts: Encryption SDK + KMS', limit: 1.6, has: (m: { name: string }) => envelopeKeyUses.has(m.name) },
  { name: 'plain', limit: 1.25, has: () => true },
] as const;

async function main() {
  const dynamo = await startDynamoDbLocal({});
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tessera-bench-'));
  // Shared with the cold-start processes, so they read the same table and keys (and the same JWT issuer).
  const configEnv = { TESSERA_STAGE: 'local', DYNAMODB_ENDPOINT: dynamo.endpoint, TESSERA_TABLE: 'bench', TESSERA_DATA_DIR: dataDir, PORT: '0', TESSERA_RATE_AUTH_IP_REQUESTS: '1000000', TESSERA_RATE_LOGIN_ACCOUNT_FAILURES: '500', TESSERA_RATE_LOGIN_ACCOUNT_IP_FAILURES: '10000', TESSERA_PASSWORD_RESET_RESPONSE_FLOOR_MS: '0' };
  const config = loadConfig({ ...process.env, ...configEnv });
  const deps = await createDeps(config);
  await ensureTable(deps.db, config.tableName);
  // The raw references are the AWS SDK's own client, as the criteria were set against; the
  // service sends through its own (shared/store/client.ts).
  const sdk = new DynamoDBClient({ region: config.region, endpoint: config.dynamodbEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  setDeps(deps);
  const host = await startLocalHost({ port: 0 });
  try {
    const created = await createTenant(deps, { slug: 'bench', name: 'Bench', emailDomains: ['bench.test'], adminEmail: 'admin@bench.test', adminPassword: PASSWORD });
    // No MFA: the bench measures the password path and token checks, not TOTP.
    await deps.table.put({ Item: { ...keys.mfaPolicy(created.tenant.id), tenant_id: created.tenant.id, mfa_mode: 'OFF', required_actions: [], created_at: '', updated_at: '' } });

    const post = (p: string, body: unknown, token?: string) =>
      fetch(`${host.url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
    const get = (p: string, token: string) => fetch(`${host.url}${p}`, { headers: { authorization: `Bearer ${token}` } });
    const ensureOk = async (r: Response) => {
      if (!r.ok) throw new Error(`bench request failed: ${r.status} ${await r.text()}`);
      await r.arrayBuffer();
    };

    const loginBody = { email: 'admin@bench.test', password: PASSWORD };
    const session = (await (await post('/v1/auth/login', loginBody)).json()) as { access_token: string };
    const pat = (await (await post('/v1/tokens', { name: 'bench', scopes: ['users:read', 'connections:read'] }, session.access_token)).json()) as { token: string };

    const integration = integrations[0]!;
    const connectionBody = { integration_id: integration.integration_id, name: 'bench', scope: integration.examples.scope, schedule: { type: 'daily', hour: 2, minute: 0 }, configuration: integration.examples.configuration };
    const connectionIds: string[] = [];
    for (let i = 0; i < (COLD_START_ONLY ? 1 : 100); i++) {
      const res = await post('/v1/connections', connectionBody, session.access_token);
      connectionIds.push(((await res.json()) as { connection_id: string }).connection_id);
    }

    const baseline = await latency('DynamoDB GetItem (baseline)', ITERATIONS, () =>
      sdk.send(new GetItemCommand({ TableName: config.tableName, Key: marshall(keys.user(created.tenant.id, created.admin.id)), ConsistentRead: true })),
    );
    const connectionGet = await latency('GET /v1/connections/{id} (local host)', ITERATIONS, async () => ensureOk(await get(`/v1/connections/${connectionIds[0]}`, session.access_token)));
    const rows: Row[] = [baseline];
    if (COLD_START_ONLY) {
      rows.push(connectionGet);
      printTable(rows, baseline);
    } else {
      rows.push(await latency('GET /v1/me (JWT)', ITERATIONS, async () => ensureOk(await get('/v1/me', session.access_token))));
      rows.push(await latency('GET /v1/me (PAT)', ITERATIONS, async () => ensureOk(await get('/v1/me', pat.token))));
      const storedHash = await hashPassword(PASSWORD);
      const argon = await latency('  of which Argon2id verify', LOGIN_ITERATIONS, () => verifyPassword(storedHash, PASSWORD));
      const loginRow = await latency('POST /v1/auth/login', LOGIN_ITERATIONS, async () => ensureOk(await post('/v1/auth/login', loginBody)));
      rows.push(loginRow, argon);

      // Password reset request: an existing account (token, audit event, .eml) against an
      // unknown one, without the response floor: the gap is what the floor has to hide.
      const forgotKnown = await latency('POST /v1/auth/password/forgot (account)', LOGIN_ITERATIONS, async () => ensureOk(await post('/v1/auth/password/forgot', { email: 'admin@bench.test' })));
      const forgotUnknown = await latency('POST /v1/auth/password/forgot (no account)', LOGIN_ITERATIONS, async () => ensureOk(await post('/v1/auth/password/forgot', { email: 'nobody@bench.test' })));
      rows.push(forgotKnown, forgotUnknown);

      // Connections: one read, a page of 100, and a create (transaction with its audit event)
      // against a raw TransactWriteItems of two items.
      rows.push(connectionGet);
      rows.push(await latency('GET /v1/connections?limit=100 (100 items)', Math.ceil(ITERATIONS / 3), async () => ensureOk(await get('/v1/connections?limit=100', session.access_token))));
      let n = 0;
      const rawTransaction = await latency('TransactWriteItems, 2 items (baseline 2)', ITERATIONS, () =>
        sdk.send(
          new TransactWriteItemsCommand({
            TransactItems: [
              { Put: { TableName: config.tableName, Item: marshall({ PK: `BENCH#${n}`, SK: 'A', v: 'x'.repeat(600) }) } },
              { Put: { TableName: config.tableName, Item: marshall({ PK: `BENCH#${n++}`, SK: 'B', v: 'x'.repeat(300) }) } },
            ],
          }),
        ),
      );
      const createRow = await latency('POST /v1/connections', ITERATIONS, async () => ensureOk(await post('/v1/connections', connectionBody, session.access_token)));
      rows.push(rawTransaction, createRow);

      printTable(rows, baseline);
      console.log(`\nPOST /v1/connections against a raw 2-item TransactWriteItems: p50 ×${(createRow.p50 / rawTransaction.p50).toFixed(1)}, p99 ×${(createRow.p99 / rawTransaction.p99).toFixed(1)}`);
      console.log(`\nArgon2id share of a login (p50): ${((argon.p50 / loginRow.p50) * 100).toFixed(0)} %`);
      console.log(`Password reset request, existing against unknown account, floor off (p50): ×${(forgotKnown.p50 / forgotUnknown.p50).toFixed(1)}, +${(forgotKnown.p99 - forgotUnknown.p50).toFixed(1)} ms at p99 (floor: ${loadConfig({}).passwordResetResponseFloorMs} ms)`);
    }

    const fixture: ColdStartFixture = {
      hostUrl: host.url,
      accessToken: session.access_token,
      tenantId: created.tenant.id,
      tenantSlug: 'bench',
      userId: created.admin.id,
      connectionId: connectionIds[0]!,
      loginBody,
      // What a Lambda's process gets: its configuration and the role's credentials, nothing of ours.
      env: {
        PATH: process.env.PATH ?? '',
        ...configEnv,
        AWS_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 'local',
        AWS_SECRET_ACCESS_KEY: 'local',
        AWS_SESSION_TOKEN: 'local',
        // The floor's client has no endpoint of its own: the SDK reads this one.
        AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
        POWERTOOLS_LOG_LEVEL: 'SILENT',
        POWERTOOLS_METRICS_DISABLED: 'true',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      },
    };

    // The criterion's GET is the handler invoked with its API Gateway event, as Lambda invokes it:
    // through the local host (above) the figure also holds this process's HTTP client and server
    // and the event's emulation (~1.4 ms here), which a deployed function does not run.
    const getItem = () => sdk.send(new GetItemCommand({ TableName: config.tableName, Key: marshall(keys.user(created.tenant.id, created.admin.id)), ConsistentRead: true }));
    const getEvent = coldStartEvent('connections-get', fixture);
    const [rawGet, handlerGet] = await interleavedLatency(
      [
        { name: 'DynamoDB GetItem (baseline)', run: getItem },
        {
          name: 'GET /v1/connections/{id}, handler invoked',
          run: async () => {
            const result = (await connectionGetHandler(structuredClone(getEvent) as Parameters<typeof connectionGetHandler>[0], lambdaContext('connections-get', 30_000))) as { statusCode: number };
            if (result.statusCode !== 200) throw new Error(`bench GET answered ${result.statusCode}`);
          },
        },
      ],
      { warmup: WARM_GET_WARMUP, blocks: 5, perBlock: ITERATIONS / 5 },
    );
    console.log(`\nWarm GET, handler invoked, in turn with the raw GetItem (${handlerGet!.iterations} each, after ${WARM_GET_WARMUP} of each to warm up):`);
    printTable([rawGet!, handlerGet!], rawGet!);

    const throughput = await loginThroughput(coldStartEvent('auth-login', fixture), await hashPassword(PASSWORD));
    const { logins, ceiling } = throughput;
    console.log(`\nLogin throughput, one process, sequential (${THROUGHPUT_LOGINS} each, after ${THROUGHPUT_WARMUP} to warm up):`);
    console.log(`  per core (per CPU second of this process): login handler ${logins.perCpuSecond.toFixed(1)}/s, Argon2id verify alone ${ceiling.perCpuSecond.toFixed(1)}/s (×${(logins.perCpuSecond / ceiling.perCpuSecond).toFixed(2)})`);
    console.log(`  per wall second (DynamoDB Local's latency included): login handler ${logins.perWallSecond.toFixed(1)}/s, Argon2id verify alone ${ceiling.perWallSecond.toFixed(1)}/s (×${(logins.perWallSecond / ceiling.perWallSecond).toFixed(2)})`);

    const cold = await coldStarts(fixture);
    printMustShow([
      ...cold.criteria,
      { name: 'Login throughput per core ≥ 0.6 × Argon2id-only ceiling', measured: throughput.logins.perCpuSecond / throughput.ceiling.perCpuSecond, limit: 0.6, atLeast: true },
      { name: 'Warm GET /v1/connections/{id} p50 ≤ 1.3 × raw GetItem + 1 ms', measured: handlerGet!.p50, limit: 1.3 * rawGet!.p50 + 1, unit: 'ms' },
    ]);
  } finally {
    await host.close();
    await dynamo.stop();
  }

  if (COLD_START_ONLY || process.env.BENCH_SKIP_DISCOVERY === '1') return;
  // A process of its own (its DynamoDB Local, its org server, its worker): about 20 minutes at
  // the default size, bound by Okta's rate limits as a real org's discovery is.
  console.log('\nDiscovery runs (bench/discovery-run.ts):');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./discovery-run.ts', import.meta.url))], { stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the discovery bench exited with ${code}`))));
  });
  // The scheduler with 10,000 connections due in one minute: its own DynamoDB Local and table.
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./dispatcher.ts', import.meta.url))], { stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the dispatcher bench exited with ${code}`))));
  });
}

/**
 * Logins through the login handler against Argon2id verify alone, one at a time. Two figures
 * for each: per second of wall time (what one Lambda environment, which serves one request at
 * a time, gets here: DynamoDB Local's latency included), and per second of this process's CPU
 * (`process.cpuUsage`: the main thread and the thread pool that hashes), which is the
 * throughput per core the issue asks about: the table's own work is DynamoDB's, not the
 * function's, and waiting on it costs no core.
 */
async function loginThroughput(event: unknown, storedHash: string): Promise<{ logins: Throughput; ceiling: Throughput }> {
  const login = async () => {
    // A copy each time: the body parser replaces the event's body with the parsed object.
    const result = (await loginHandler(structuredClone(event) as Parameters<typeof loginHandler>[0], lambdaContext('auth-login', 30_000))) as { statusCode: number };
    if (result.statusCode !== 200) throw new Error(`bench login answered ${result.statusCode}`);
  };
  const argon = () => verifyPassword(storedHash, PASSWORD);
  for (let i = 0; i < THROUGHPUT_WARMUP; i++) await login();
  for (let i = 0; i < THROUGHPUT_WARMUP / 4; i++) await argon();
  // Blocks of each in turn, so a machine that slows down in the middle weighs on both alike.
  const totals = { logins: { cpu: 0, wall: 0 }, ceiling: { cpu: 0, wall: 0 } };
  const block = async (into: { cpu: number; wall: number }, run: () => Promise<unknown>, count: number) => {
    const cpu = process.cpuUsage();
    const start = performance.now();
    for (let i = 0; i < count; i++) await run();
    into.wall += (performance.now() - start) / 1000;
    const used = process.cpuUsage(cpu);
    into.cpu += (used.user + used.system) / 1e6;
  };
  for (let b = 0; b < THROUGHPUT_BLOCKS; b++) {
    await block(totals.ceiling, argon, THROUGHPUT_LOGINS / THROUGHPUT_BLOCKS);
    await block(totals.logins, login, THROUGHPUT_LOGINS / THROUGHPUT_BLOCKS);
  }
  const rate = (t: { cpu: number; wall: number }): Throughput => ({ perWallSecond: THROUGHPUT_LOGINS / t.wall, perCpuSecond: THROUGHPUT_LOGINS / t.cpu });
  return { logins: rate(totals.logins), ceiling: rate(totals.ceiling) };
}

interface Throughput {
  perWallSecond: number;
  perCpuSecond: number;
}

async function coldStarts(fixture: ColdStartFixture): Promise<{ criteria: Criterion[] }> {
  console.log(`\nCold starts (bench/cold-start.ts): each bundle imported in a fresh node ${process.version} process, median of ${process.env.BENCH_COLD_START_SAMPLES ?? 5}`);
  const probe = await buildProbe();
  const empty = await buildReferenceBundle('empty');
  const floor = await buildReferenceBundle('floor');
  const emptyStart = await measureColdStart(probe, empty, {}, fixture.env);
  const floorStart = await measureColdStart(probe, floor, {}, fixture.env);

  type Measured = FunctionBundle & ColdStartAgainstReferences & { hashesPasswords: boolean };
  const measured: Measured[] = [];
  for (const handler of functionHandlers) {
    const bundle = await buildFunctionBundle(handler);
    const start = await measureAgainstReferences(probe, bundle, coldStartEvent(handler, fixture), { empty, floor }, fixture.env);
    measured.push({ ...bundle, ...start, hashesPasswords: passwordHashingHandlers.has(handler) });
  }

  const kib = (bytes: number) => (bytes / 1024).toFixed(0);
  const line = (m: FunctionBundle & ColdStart, initCpu: number, initRatio: number, flags: string) => {
    console.log(
      `${m.name.padEnd(31)} ${flags.padEnd(5)} ${kib(m.minifiedBytes).padStart(6)} ${(m.minifiedBytes / floor.minifiedBytes).toFixed(2).padStart(6)} ${kib(m.zippedBytes).padStart(6)} ` +
        `${initCpu.toFixed(1).padStart(8)} ${initRatio.toFixed(2).padStart(6)} ${m.importWallMs.toFixed(1).padStart(8)} ${m.firstCpuMs.toFixed(1).padStart(7)} ${m.firstWallMs.toFixed(1).padStart(7)}  ${m.status}`,
    );
  };
  const floorInitCpu = floorStart.importCpuMs - emptyStart.importCpuMs;
  console.log(`${'function'.padEnd(31)} ${'flags'.padEnd(5)} ${'KiB'.padStart(6)} ${'×floor'.padStart(6)} ${'zipKiB'.padStart(6)} ${'initCPU'.padStart(8)} ${'×floor'.padStart(6)} ${'initWall'.padStart(8)} ${'1stCPU'.padStart(7)} ${'1stWall'.padStart(7)}  first answer`);
  line({ ...empty, ...emptyStart }, 0, 0, '');
  line({ ...floor, ...floorStart }, floorInitCpu, 1, '');
  for (const m of measured) line(m, m.initCpuMs, m.initRatio, `${m.hashesPasswords ? 'A' : ''}${m.speaksSaml ? 'S' : ''}${COMMON_FUNCTIONS.has(m.name) ? 'c' : ''}`);
  const layerZipped = layerZippedBytes();
  const totalZipped = measured.reduce((n, m) => n + m.zippedBytes, 0) + layerZipped;
  const floors = measured.map((m) => m.floorInitCpuMs);
  console.log(`flags: A hashes passwords, S speaks SAML, c common function. initCPU = import CPU ms minus the empty module's measured beside it; its ×floor is the median over the samples of the ratio to the floor measured beside the same sample; initWall is raw.`);
  console.log(`The floor's import CPU, measured beside every sample, had medians between ${Math.min(...floors).toFixed(1)} and ${Math.max(...floors).toFixed(1)} ms over the run.`);
  console.log(`Total zipped: ${(totalZipped / 1_000_000).toFixed(2)} MB for ${measured.length} functions and the layer of shared packages (${kib(layerZipped)} KiB); floor ${kib(floor.minifiedBytes)} KiB, ${floorInitCpu.toFixed(1)} ms import CPU over the empty module at the start.`);

  const bundleRatio = (m: Measured) => m.minifiedBytes / floor.minifiedBytes;
  const initRatio = (m: Measured) => m.initRatio;
  const classOf = (m: Measured) => BUNDLE_CLASSES.find((c) => c.has(m))!;
  return {
    criteria: [
      ...BUNDLE_CLASSES.map((c) => worstOf(`Bundle ≤ ${c.limit} × floor (${c.name})`, measured.filter((m) => classOf(m) === c), bundleRatio, c.limit)),
      { name: `Total zipped ≤ 10 MB (${measured.length} functions, 1 layer)`, measured: totalZipped / 1_000_000, limit: TOTAL_ZIPPED_LIMIT_BYTES / 1_000_000, unit: 'MB' },
      worstOf('Init CPU ≤ 1.5 × floor (common functions)', measured.filter((m) => COMMON_FUNCTIONS.has(m.name)), initRatio, 1.5),
      worstOf('Init CPU ≤ 3 × floor (SAML)', measured.filter((m) => m.speaksSaml), initRatio, 3),
    ],
  };
}

await main();
