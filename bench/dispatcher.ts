/**
 * The dispatcher bench (`npm run bench` runs it; alone: `npx tsx bench/dispatcher.ts`): 10,000
 * connections (BENCH_DISPATCH_CONNECTIONS) whose daily schedule falls in the same minute, on
 * DynamoDB Local, then the scheduler's ticks until every one has a queued run.
 *
 * The ticks run back to back here; in AWS they come once a minute, so the time until all are
 * queued is (ticks − 1) minutes plus the last tick, and the work of a tick must fit its minute.
 * Reported: the ticks needed, the work per tick, the whole and per connection.
 */
import { performance } from 'node:perf_hooks';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../shared/config';
import { createDeps } from '../functions/start/deps-assembly';
import { createConnection } from '../shared/connections/connections';
import { connectionItem } from '../shared/connections/connection-records';
import { keys } from '../shared/store/keys';
import type { ConnectionRecord } from '../shared/store/records';
import { createTenant } from '../shared/identity/tenants';
import { dispatchDueRuns, type DispatchReport } from '../shared/runs/dispatcher';
import type { RunMessage, RunQueue } from '../shared/runs/run-queue';
import { ensureTable, startDynamoDbLocal } from '../infra/local/dynamodb-local';
import { runWithConcurrency } from '../shared/bounded-concurrency';
import { oktaToken } from '../infra/local/stand-ins/okta';
import { printMustShow, type Criterion } from './must-show';

process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const CONNECTIONS = Number(process.env.BENCH_DISPATCH_CONNECTIONS ?? 10_000);
/** Connections made at once while seeding (not measured). */
const SEED_CONCURRENCY = 16;
/** Stops a dispatcher that would never drain the index. */
const MAX_TICKS = 1_000;

async function main() {
  const dynamo = await startDynamoDbLocal({});
  try {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tessera-bench-dispatch-'));
    const config = loadConfig({ ...process.env, TESSERA_STAGE: 'local', DYNAMODB_ENDPOINT: dynamo.endpoint, TESSERA_TABLE: 'bench-dispatch', TESSERA_DATA_DIR: dataDir, PORT: '0' });
    const queued: RunMessage[] = [];
    const runQueue: RunQueue = {
      send: (message) => {
        queued.push(message);
        return Promise.resolve();
      },
    };
    // Created at 02:00 UTC: every schedule is daily at 03:00, so all fall due in the same minute.
    const seedNow = new Date('2026-03-02T02:00:00.000Z');
    const seedDeps = await createDeps(config, { runQueue, clock: { now: () => new Date(seedNow) } });
    await ensureTable(seedDeps.db, config.tableName);
    const created = await createTenant(seedDeps, { slug: 'dispatch', name: 'Dispatch', emailDomains: ['dispatch.test'], adminEmail: 'admin@dispatch.test', adminPassword: 'bench password that is long enough' });
    const actor = { tenantId: created.tenant.id, workspaceId: created.workspace.id, userId: created.admin.id, sourceIp: '127.0.0.1' };

    // One connection made as the API makes it; the others are its copies under new ids (the
    // dispatcher reads the index and claims; it never opens a configuration), written in batches.
    const seedStarted = performance.now();
    const first = (await createConnection(seedDeps, actor, {
      integration_id: 'int_okta_discovery',
      name: 'okta 0',
      scope: {},
      schedule: { type: 'daily', hour: 3, minute: 0 },
      configuration: { org_url: 'https://tessera-bench.okta.com', api_token: oktaToken },
    }, undefined)).body as { connection_id: string };
    const base = (await seedDeps.table.get<ConnectionRecord>(keys.connection(actor.tenantId, actor.workspaceId, first.connection_id)))!;
    const copies = Array.from({ length: CONNECTIONS - 1 }, (_, i) => connectionItem({ ...base, connection_id: seedDeps.ids.next('conn'), name: `okta ${i + 1}` }));
    const chunks = Array.from({ length: Math.ceil(copies.length / 500) }, (_, i) => copies.slice(i * 500, (i + 1) * 500));
    await runWithConcurrency(chunks, SEED_CONCURRENCY, (chunk) => seedDeps.table.batchWrite(chunk as never));
    console.log(`\nDispatcher (bench/dispatcher.ts): ${CONNECTIONS} connections due at 03:00 UTC, made in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s (not measured)`);

    // The first tick of the minute they are due, then the next ones (back to back here).
    const tickAt = new Date('2026-03-02T03:00:05.000Z');
    const deps = await createDeps(config, { runQueue, clock: { now: () => new Date(tickAt) } });
    const ticks: { ms: number; started: number }[] = [];
    while (queued.length < CONNECTIONS && ticks.length < MAX_TICKS) {
      const report: DispatchReport = { started: [], skipped: [], resumed: [], failed: [] };
      const started = performance.now();
      await dispatchDueRuns(deps, report);
      ticks.push({ ms: performance.now() - started, started: report.started.length });
      if (report.started.length === 0) break;
    }
    const workMs = ticks.reduce((n, t) => n + t.ms, 0);
    const worstTickMs = Math.max(...ticks.map((t) => t.ms));
    const untilAllQueuedS = (ticks.length - 1) * 60 + (ticks.at(-1)?.ms ?? 0) / 1000;
    console.log(`  ticks until all queued: ${ticks.length} (${ticks.map((t) => t.started).join(', ')} started per tick)`);
    console.log(`  work: ${(workMs / 1000).toFixed(1)} s in all, ${(workMs / CONNECTIONS).toFixed(2)} ms per connection; slowest tick ${(worstTickMs / 1000).toFixed(2)} s`);
    console.log(`  with a tick a minute: all ${queued.length} queued ${(untilAllQueuedS / 60).toFixed(1)} min after the slot`);
    const criteria: Criterion[] = [
      { name: `Runs queued, of ${CONNECTIONS} due in one minute`, measured: queued.length, limit: CONNECTIONS, unit: 'runs', atLeast: true },
      { name: 'Slowest tick fits its minute', measured: worstTickMs / 1000, limit: 60, unit: 's' },
    ];
    printMustShow(criteria);
    if (queued.length < CONNECTIONS) process.exitCode = 1;
  } finally {
    await dynamo.stop();
  }
}

await main();
