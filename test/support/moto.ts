/**
 * moto (a third-party emulator of AWS APIs, Python) as a local AWS: `python3 -m moto.server` on a
 * free loopback port, one server for every service (it tells them apart by the signature's
 * credential scope). Its state lives in the process, so each file starts its own.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** Whether moto's server runs here; the reason when not. */
function motoMissing(): string | undefined {
  const probe = spawnSync('python3', ['-c', 'import moto.server, flask, flask_cors'], { encoding: 'utf8' });
  if (probe.error) return 'python3 was not found (moto needs Python 3: pip install "moto[server]")';
  if (probe.status !== 0) return `moto's server cannot be imported (pip install "moto[server]"): ${probe.stderr.trim().split('\n').at(-1) ?? ''}`;
  return undefined;
}

/**
 * What a test file that needs moto does first: in CI a missing install is an error (the test
 * must run there), elsewhere the file's tests are skipped with a warning that says what to
 * install. Returns why it is missing, for `describe.skipIf`.
 */
export function requireMoto(test: string): string | undefined {
  const missing = motoMissing();
  if (missing && process.env.CI) throw new Error(`${test} must run in CI, but ${missing}`);
  if (missing) console.warn(`SKIPPED: ${test}: ${missing}`);
  return missing;
}

export interface Moto {
  /** `http://127.0.0.1:<port>`: the endpoint of every service. */
  url: string;
  close(): Promise<void>;
}

export async function startMoto(): Promise<Moto> {
  const port = await freePort();
  // moto 5 knows AWS managed policies (AdministratorAccess...) only when asked to load them.
  const env = { ...process.env, MOTO_IAM_LOAD_MANAGED_POLICIES: 'true' };
  const child: ChildProcess = spawn('python3', ['-m', 'moto.server', '-H', '127.0.0.1', '-p', String(port)], { stdio: ['ignore', 'ignore', 'pipe'], env });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`moto's server exited (${child.exitCode}): ${stderr}`);
    try {
      if ((await fetch(`${url}/moto-api/`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`moto's server did not answer within 60 s: ${stderr}`);
    }
    await sleep(200);
  }
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
