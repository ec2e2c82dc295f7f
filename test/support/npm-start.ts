/**
 * `npm start` as a user runs it: a real `npm` process in the repository, on a port and data
 * directory of its own, ready when it prints the line that names its URL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

export const REPOSITORY = path.resolve(import.meta.dirname, '..', '..');

export interface NpmStart {
  url: string;
  child: ChildProcess;
  /** Everything it printed so far. */
  output: () => string;
  /** Sends `signal` to npm and waits for it to exit; its exit code or signal. */
  stop(signal: NodeJS.Signals): Promise<number | NodeJS.Signals | null>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A port for `npm run demo`: free, with the four after it free for its stand-ins, and not 3000,
 * so that a command of the docs that works only on the default port fails.
 */
export async function freeDemoPort(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port === 3000 || port + 4 > 65535) continue;
    const free = await Promise.all([1, 2, 3, 4].map((n) => new Promise<boolean>((resolve) => {
      const probe = net.createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port + n, '127.0.0.1', () => probe.close(() => resolve(true)));
    })));
    if (free.every(Boolean)) return port;
  }
}

/** Starts `npm <args>` and resolves once a line of its output matches `ready` (rejects if it exits first). */
export async function startNpm(args: string[], env: Record<string, string>, ready: RegExp): Promise<{ child: ChildProcess; output: () => string; match: RegExpExecArray }> {
  const child = spawn('npm', args, { cwd: REPOSITORY, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = ready.exec(output);
      if (m) resolve(m);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code, signal) => reject(new Error(`npm ${args.join(' ')} exited (${signal ?? code}) before it was ready:\n${output}`)));
  });
  return { child, output: () => output, match };
}

export async function startNpmStart(env: Record<string, string>): Promise<NpmStart> {
  const started = await startNpm(['start'], env, /Tessera API on (http:\/\/\S+) /);
  const child = started.child;
  return {
    url: started.match[1]!,
    child,
    output: () => started.output(),
    stop(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode ?? child.signalCode);
      return new Promise((resolve) => {
        child.once('exit', (code, sig) => resolve(code ?? sig));
        child.kill(signal);
      });
    },
  };
}

/** Every live process below `pid` (from /proc), with its command line. */
export async function descendantsOf(pid: number): Promise<{ pid: number; command: string }[]> {
  const parents = new Map<number, number>();
  const commands = new Map<number, string>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => undefined);
    if (!stat) continue;
    // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    parents.set(Number(entry), ppid);
    commands.set(Number(entry), (await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '')).replaceAll('\0', ' ').trim());
  }
  const found: { pid: number; command: string }[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of parents) {
      if (ppid === parent) {
        found.push({ pid: child, command: commands.get(child) ?? '' });
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

export const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
