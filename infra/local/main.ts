/**
 * `npm start`: the whole service on this machine. DynamoDB Local under the data directory
 * (unless DYNAMODB_ENDPOINT names another DynamoDB), the table, an optional first tenant, and
 * the local host serving the real handlers.
 */
import path from 'node:path';
import { loadConfig, type Config } from '../../shared/config';
import { createDeps, setDeps, type Deps } from '../../shared/deps';
import { ConflictError } from '../../shared/errors';
import { createTenant } from '../../shared/identity/tenants';
import { consoleSite } from './console-site';
import { ensureConsoleBuilt } from './console-build';
import { ensureTable, findRunningDynamoDbLocal, startDynamoDbLocal } from './dynamodb-local';
import { createLocalRunQueue } from './run-queue';
import { startLocalScheduler } from './scheduler';
import { startLocalHost } from './server';

// No CloudWatch here, so EMF metrics would only flood the terminal; and Lambda runs Node 22,
// so the SDK's warning about this machine's Node 20 says nothing about the service.
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const cleanups: (() => Promise<void>)[] = [];
let stopping = false;

async function shutdown(exitCode: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => console.error('tessera: while stopping:', error));
  }
  process.exit(exitCode);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1); // a second Ctrl-C does not wait
    console.log(`\n${signal}: stopping`);
    void shutdown(0);
  });
}

async function main(): Promise<void> {
  let config = loadConfig(); // first, so that a bad variable fails before java starts
  if (!config.dynamodbEndpoint) {
    const dbPath = path.join(config.dataDir, 'dynamodb');
    const running = await findRunningDynamoDbLocal(dbPath);
    if (running) {
      throw new Error(`${dbPath} is in use by another process (DynamoDB Local at ${running}); stop it or set TESSERA_DATA_DIR`);
    }
    const started = Date.now();
    const dynamo = await startDynamoDbLocal({ dbPath });
    cleanups.push(() => dynamo.stop());
    console.log(`DynamoDB Local ready at ${dynamo.endpoint} in ${Date.now() - started} ms (data in ${dbPath})`);
    config = loadConfig({ ...process.env, DYNAMODB_ENDPOINT: dynamo.endpoint });
  }

  // Discovery runs: the worker's queue and the scheduler's tick, in this process.
  const runQueue = createLocalRunQueue({ onDeadLetter: (message) => console.error('tessera: a run message failed repeatedly and was set aside:', message) });
  const deps = await createDeps(config, { runQueue });
  cleanups.push(() => Promise.resolve(deps.db.destroy()));
  cleanups.push(() => Promise.resolve(runQueue.stop()));
  if ((await ensureTable(deps.db, config.tableName)) === 'created') console.log(`Created table ${config.tableName}`);
  setDeps(deps);
  await bootstrap(deps, config);

  // The web console at `/` (built first when missing or stale), the API under `/v1`.
  const site = consoleSite(await ensureConsoleBuilt((line) => console.log(line)));
  const host = await startLocalHost({ port: config.port, host: '127.0.0.1', trustForwardedFor: config.trustForwardedFor, site }).catch((error: unknown) => {
    throw (error as NodeJS.ErrnoException).code === 'EADDRINUSE' ? new Error(`Port ${config.port} is in use; set PORT to another one`) : error;
  });
  cleanups.push(() => host.close());
  const scheduler = startLocalScheduler({ intervalMs: config.runs.schedulerIntervalSeconds * 1000 });
  cleanups.push(() => scheduler.stop());
  void scheduler.tick(); // runs that were due (or stalled) while the host was down
  console.log(`Tessera API on ${host.url} (try ${host.url}/v1/health), console on ${host.url}/; scheduled runs checked every ${config.runs.schedulerIntervalSeconds} s; Ctrl-C stops`);
}

/** The first tenant, from TESSERA_BOOTSTRAP_*; a tenant that exists is left as it is. */
async function bootstrap(deps: Deps, config: Config): Promise<void> {
  const { tenant: slug, adminEmail, adminPassword } = config.bootstrap;
  if (!adminEmail || !adminPassword) {
    console.log(
      (adminEmail || adminPassword ? 'Bootstrap needs both TESSERA_BOOTSTRAP_ADMIN_EMAIL and TESSERA_BOOTSTRAP_ADMIN_PASSWORD. ' : '') +
      `To create a tenant: TESSERA_ADMIN_PASSWORD=... npm run tessera -- create-tenant --slug ${slug} --admin-email admin@example.com`,
    );
    return;
  }
  try {
    const created = await createTenant(deps, {
      slug,
      name: slug,
      emailDomains: [adminEmail.slice(adminEmail.lastIndexOf('@') + 1)],
      adminEmail,
      adminPassword,
    });
    console.log(`Bootstrap: created tenant ${created.tenant.slug} (${created.tenant.id}), workspace ${created.workspace.id}, admin ${created.admin.email} (${created.admin.id})`);
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    console.log(`Bootstrap skipped: ${error.message}`);
  }
}

main().catch(async (error: unknown) => {
  console.error(`tessera: ${error instanceof Error ? error.message : String(error)}`);
  await shutdown(1);
});
