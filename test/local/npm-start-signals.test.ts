/**
 * `npm start` stopped as a terminal or a process manager stops it (SIGINT, SIGTERM to npm)
 * leaves nothing behind: not the node process of the local host, not DynamoDB Local's java.
 * (It also serves the web console, whose reset-password page the emails link to.)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { descendantsOf, freePort, isAlive, startNpmStart } from '../support/npm-start';

describe('npm start stops cleanly', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`on ${signal} to npm: the local host, its node and DynamoDB Local's java are gone`, async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'tessera-start-'));
      let processes: { pid: number; command: string }[] = [];
      try {
        const started = await startNpmStart({ PORT: String(await freePort()), TESSERA_DATA_DIR: dataDir });
        const health = await fetch(`${started.url}/v1/health`);
        expect(health.status).toBe(200);
        // The page the reset email links to is the console's, on this origin, strict about what it runs.
        const page = await fetch(`${started.url}/reset-password?token=tsr_reset_x`);
        expect(page.status).toBe(200);
        expect(page.headers.get('content-type')).toContain('text/html');
        expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
        expect(page.headers.get('referrer-policy')).toBe('no-referrer');
        const script = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/.exec(await page.text());
        expect(script).not.toBeNull();
        expect((await fetch(`${started.url}${script![1]}`)).status).toBe(200);
        processes = await descendantsOf(started.child.pid!);
        expect(processes.map((p) => p.command)).toEqual(expect.arrayContaining([expect.stringMatching(/^java .*DynamoDBLocal\.jar/), expect.stringMatching(/node .*infra\/local\/main\.ts/)]));

        const exit = await started.stop(signal);
        expect(exit, started.output()).toBe(0);
        // npm exits after the local host, which waited for java: neither may be left by now.
        const essential = processes.filter((p) => /^java |infra\/local\/main\.ts/.test(p.command));
        expect(essential.filter((p) => isAlive(p.pid)).map((p) => `${p.pid} ${p.command}`)).toEqual([]);
        // Helpers (tsx's esbuild service) end when their pipe to the local host closes: wait for them.
        for (const helper of processes.filter((p) => !essential.includes(p))) while (isAlive(helper.pid)) await sleep(20);
        expect(started.output()).toContain(`${signal}: stopping`);
        await expect(fetch(`${started.url}/v1/health`)).rejects.toThrow();
      } finally {
        // A failed run must not leave its processes to the next one.
        for (const p of processes) if (isAlive(p.pid)) process.kill(p.pid, 'SIGKILL');
        await rm(dataDir, { recursive: true, force: true });
      }
    });
  }
});
