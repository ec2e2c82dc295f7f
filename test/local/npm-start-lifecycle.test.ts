/**
 * `npm start`'s life as an operator sees it, beyond a clean stop (npm-start-signals.test.ts):
 * a request in flight when SIGTERM arrives gets its answer before the host exits; a port that
 * is taken, or a data directory another `npm start` serves, is a clear message and a non-zero
 * exit that leaves no DynamoDB Local behind.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { descendantsOf, freePort, isAlive, REPOSITORY, startNpmStart } from '../support/npm-start';

/** The reset request answers no sooner than this: long enough to be in flight when the signal comes. */
const SLOW_ANSWER_MS = 4000;

/** Runs `npm start` to its end (it is expected to fail); its exit code, output and every process it started. */
function npmStartUntilExit(env: Record<string, string>): Promise<{ code: number | null; output: string; seen: { pid: number; command: string }[] }> {
  const child = spawn('npm', ['start'], { cwd: REPOSITORY, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const seen = new Map<number, string>();
  // Watch what it starts (java would be the one to leak), until it exits.
  const watch = setInterval(() => {
    // (An exiting process reads as an empty command line: keep what it was.)
    void descendantsOf(child.pid!).then((found) => found.forEach((p) => p.command && seen.set(p.pid, p.command)));
  }, 100);
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      clearInterval(watch);
      resolve({ code, output, seen: [...seen].map(([pid, command]) => ({ pid, command })) });
    });
  });
}

describe('npm start: startup refusals', () => {
  it('a port in use: says so and how to choose another, exits 1, and stops the DynamoDB Local it started', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'tessera-start-'));
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    let seen: { pid: number; command: string }[] = [];
    try {
      const run = await npmStartUntilExit({ PORT: String(port), TESSERA_DATA_DIR: dataDir });
      seen = run.seen;
      expect(run.code, run.output).toBe(1);
      expect(run.output).toContain(`tessera: Port ${port} is in use; set PORT to another one`);
      // It got as far as starting DynamoDB Local (so this is the path that must stop it) ...
      expect(run.output).toMatch(/DynamoDB Local ready at http:\/\/\S+/);
      // ... and none of its processes outlive it.
      const java = seen.filter((p) => /^java .*DynamoDBLocal\.jar/.test(p.command));
      expect(java.length, `${run.output}\n${JSON.stringify(seen)}`).toBeGreaterThan(0);
      expect(java.filter((p) => isAlive(p.pid)).map((p) => p.command)).toEqual([]);
    } finally {
      for (const p of seen) if (isAlive(p.pid) && /^java |infra\/local\/main\.ts/.test(p.command)) process.kill(p.pid, 'SIGKILL');
      await new Promise((resolve) => taken.close(resolve));
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('npm start: graceful stop', () => {
  it('SIGTERM while a request is in flight: the request gets its answer, then the host exits 0; a second npm start on the same data refuses', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'tessera-start-'));
    let processes: { pid: number; command: string }[] = [];
    try {
      const started = await startNpmStart({ PORT: String(await freePort()), TESSERA_DATA_DIR: dataDir, TESSERA_PASSWORD_RESET_RESPONSE_FLOOR_MS: String(SLOW_ANSWER_MS) });
      processes = await descendantsOf(started.child.pid!);

      // Another npm start on the same data directory finds it in use and says so.
      const second = await npmStartUntilExit({ PORT: String(await freePort()), TESSERA_DATA_DIR: dataDir });
      expect(second.code, second.output).toBe(1);
      expect(second.output).toMatch(/tessera: .*dynamodb is in use by another process \(DynamoDB Local at http:\/\/\S+\); stop it or set TESSERA_DATA_DIR/);
      expect((await fetch(`${started.url}/v1/health`)).status).toBe(200);

      // A request the host is working on (it answers no sooner than SLOW_ANSWER_MS) ...
      const sentAt = Date.now();
      const inFlight = fetch(`${started.url}/v1/auth/password/forgot`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'nobody@example.test' }) });
      const answered = inFlight.then((res) => ({ status: res.status, at: Date.now() }));
      // ... is still in flight when the signal comes (the floor holds it well past this).
      await sleep(SLOW_ANSWER_MS / 4);
      const exited = started.stop('SIGTERM');
      const answer = await answered;
      expect(answer.status, started.output()).toBe(202);
      expect(answer.at - sentAt).toBeGreaterThanOrEqual(SLOW_ANSWER_MS);
      expect(await exited, started.output()).toBe(0);
      expect(started.output()).toContain('SIGTERM: stopping');
      await expect(fetch(`${started.url}/v1/health`)).rejects.toThrow();
      const essential = processes.filter((p) => /^java |infra\/local\/main\.ts/.test(p.command));
      expect(essential.length).toBeGreaterThanOrEqual(2);
      expect(essential.filter((p) => isAlive(p.pid)).map((p) => p.command)).toEqual([]);
    } finally {
      for (const p of processes) if (isAlive(p.pid)) process.kill(p.pid, 'SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
