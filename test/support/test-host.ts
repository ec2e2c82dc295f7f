/**
 * The local host as an API test file uses it: the real handlers over HTTP on the run's
 * DynamoDB Local (see global-setup.ts), in a table and a data directory of its own, so test
 * files running in parallel never see each other's data, keys or emails.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { ensureTable } from '../../infra/local/dynamodb-local';
import { startLocalHost, type LocalHostOptions } from '../../infra/local/server';
import type { Clock } from '../../shared/clock';
import { loadConfig, type Config } from '../../shared/config';
import { resetDeps, setDeps, type Deps } from '../../shared/deps';
import { createDeps } from '../../functions/start/deps-assembly';
import { createLocalRunQueue, type LocalRunQueue, type LocalRunQueueOptions } from '../../infra/local/run-queue';
import { startLocalScheduler, type LocalScheduler } from '../../infra/local/scheduler';

export interface TestHostOptions {
  clock?: Clock;
  /** Configuration variables on top of the test defaults (rate limits, TTLs, ...). */
  env?: Record<string, string>;
  /** The run queue's behaviour (delivery hooks, retries). */
  runQueue?: LocalRunQueueOptions;
  /** Start the local scheduler, ticking every this many milliseconds. */
  schedulerIntervalMs?: number;
  /** Shorter timeouts (ms) for some functions than the stack gives them. */
  functionTimeoutsMs?: Readonly<Record<string, number>>;
  /**
   * Send runs to the deployment's queue (`TESSERA_RUN_QUEUE_URL`, SQS) as functions in AWS do,
   * instead of the host's own queue (which then carries nothing).
   */
  deploymentRunQueue?: boolean;
  /** Serve a site (the web console's build) for GETs outside the API, as `npm start` does. */
  site?: LocalHostOptions['site'];
}

export interface TestHost {
  url: string;
  deps: Deps;
  /**
   * The test's own way to the table, items as plain values, for tests that read or alter what
   * is stored, with the SDK's document client (an independent client of the same table).
   */
  documents: DynamoDBDocumentClient;
  config: Config;
  runQueue: LocalRunQueue;
  scheduler: LocalScheduler | undefined;
  close(): Promise<void>;
}

export async function startTestHost(options: TestHostOptions = {}): Promise<TestHost> {
  process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'; // Lambda runs Node 22
  const dataDir = await mkdtemp(path.join(tmpdir(), 'tessera-test-'));
  // Listen first: the address is the token issuer and the base of links, so the config needs
  // it. Handlers read their deps per request, and none arrives before this function returns.
  const host = await startLocalHost({ port: 0, trustForwardedFor: options.env?.TESSERA_TRUST_FORWARDED_FOR !== '0', ...(options.functionTimeoutsMs ? { functionTimeoutsMs: options.functionTimeoutsMs } : {}), ...(options.site ? { site: options.site } : {}) });
  const runQueue = createLocalRunQueue({ redeliveryDelayMs: 50, ...options.runQueue });
  let config: Config;
  let deps: Deps;
  try {
    config = loadConfig({
      TESSERA_STAGE: 'local',
      AWS_REGION: 'us-east-1',
      DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
      TESSERA_TABLE: `test_${randomBytes(6).toString('hex')}`,
      TESSERA_DATA_DIR: dataDir,
      TESSERA_TRUST_FORWARDED_FOR: '1',
      PORT: new URL(host.url).port,
      TESSERA_PUBLIC_URL: host.url,
      ...options.env,
    });
    deps = await createDeps(config, { ...(options.clock ? { clock: options.clock } : {}), ...(options.deploymentRunQueue ? {} : { runQueue }) });
    await ensureTable(deps.db, config.tableName);
  } catch (error) {
    await host.close();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  setDeps(deps);
  const documents = DynamoDBDocumentClient.from(new DynamoDBClient({ region: config.region, endpoint: config.dynamodbEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }), {
    marshallOptions: { removeUndefinedValues: true },
  });
  const scheduler = options.schedulerIntervalMs ? startLocalScheduler({ intervalMs: options.schedulerIntervalMs }) : undefined;

  return {
    url: host.url,
    deps,
    documents,
    config,
    runQueue,
    scheduler,
    async close() {
      await scheduler?.stop();
      runQueue.stop();
      await host.close();
      resetDeps();
      // Dropping the table frees DynamoDB Local's memory for the files still running.
      await deps.db.call('DeleteTable', { TableName: config.tableName }).catch(() => undefined);
      deps.db.destroy();
      documents.destroy();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
