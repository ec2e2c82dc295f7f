/**
 * The whole service on this machine: DynamoDB Local under the data directory (unless
 * DYNAMODB_ENDPOINT names another DynamoDB), the table, the run queue and scheduler, the web
 * console and the local host serving the real handlers. `npm start` and `npm run demo` both
 * start it; each part's stop joins `cleanups` as soon as the part runs.
 */
import path from 'node:path';
import type { Config } from '../../shared/config';
import { setDeps, type Deps } from '../../shared/deps';
import { createDeps } from '../../functions/start/deps-assembly';
import { consoleSite } from './console-site';
import { ensureConsoleBuilt } from './console-build';
import { ensureTable, findRunningDynamoDbLocal, startDynamoDbLocal } from './dynamodb-local';
import type { Cleanup } from './process-lifecycle';
import { createLocalRunQueue } from './run-queue';
import { startLocalScheduler } from './scheduler';
import { startLocalHost } from './server';

export interface LocalService {
  url: string;
  config: Config;
  deps: Deps;
}

export async function startLocalService(initial: Config, cleanups: Cleanup[], options: { beforeListen?: (deps: Deps, config: Config) => Promise<void> } = {}): Promise<LocalService> {
  let config = initial;
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
    config = { ...config, dynamodbEndpoint: dynamo.endpoint };
  }

  // Discovery runs: the worker's queue and the scheduler's tick, in this process.
  const runQueue = createLocalRunQueue({ onDeadLetter: (message) => console.error('tessera: a run message failed repeatedly and was set aside:', message) });
  const deps = await createDeps(config, { runQueue });
  cleanups.push(() => Promise.resolve(deps.db.destroy()));
  cleanups.push(() => Promise.resolve(runQueue.stop()));
  if ((await ensureTable(deps.db, config.tableName)) === 'created') console.log(`Created table ${config.tableName}`);
  setDeps(deps);
  await options.beforeListen?.(deps, config);

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
  return { url: host.url, config, deps };
}

