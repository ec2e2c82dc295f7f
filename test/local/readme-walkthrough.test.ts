/**
 * The API walkthrough (docs/api-walkthrough.md), run as a newcomer would run it: the `sh` block under
 * `<!-- walkthrough:start -->` tells how `npm start` is started (its variables), and every `sh`
 * block under `<!-- walkthrough -->` is executed command by command, in order, against that
 * real `npm start` (its own port, data directory and DynamoDB Local).
 *
 * What a user would paste is pasted: `<name>` becomes the value of the field `name` in the
 * latest answer that had one (a header of a `curl -i` answer too), `<totp_code>` the current
 * code of the latest `secret` (a new time step each time, as a code works once) and
 * `<reset_token>` the token of the reset link the outbox holds. Ports 3000 and 3001 become free
 * ones, `.data/` the test's data directory. A command ending in `&` runs in the background
 * until the end. Each `# → …` line says what the command answers: a leading status is
 * expected exactly (else a curl must succeed), and the field names it shows must be in the
 * answer. Blocks added to the walkthrough later are run the same way, with nothing to change here.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../shared/crypto/totp';
import { descendantsOf, freePort, isAlive, REPOSITORY, startNpmStart, type NpmStart } from '../support/npm-start';

interface Command {
  /** As written (continuations joined), for messages. */
  text: string;
  /** The `# → …` text that documents its answer, if any. */
  answer: string | undefined;
  block: number;
}

interface Walkthrough {
  startEnv: Record<string, string>;
  commands: Command[];
}

/** The marked blocks of the walkthrough. */
export function parseWalkthrough(readme: string): Walkthrough {
  const blocks = [...readme.matchAll(/<!-- walkthrough(:start)? -->\s*\n```sh\n([\s\S]*?)\n```/g)];
  const start = blocks.find((b) => b[1] === ':start');
  if (!start) throw new Error('The walkthrough has no <!-- walkthrough:start --> block telling how npm start is started');
  const startEnv: Record<string, string> = {};
  for (const m of start[2]!.matchAll(/^([A-Z][A-Z0-9_]*)=('([^']*)'|"([^"]*)"|(\S+))/gm)) startEnv[m[1]!] = m[3] ?? m[4] ?? m[5]!;

  const commands: Command[] = [];
  blocks.filter((b) => b[1] === undefined).forEach((block, index) => {
    const lines = block[2]!.split('\n');
    for (let i = 0; i < lines.length; i++) {
      let line = lines[i]!;
      if (line.trim() === '') continue;
      if (line.trimStart().startsWith('#')) {
        const answer = /^\s*# → (.*)$/.exec(line)?.[1];
        const last = commands.at(-1);
        if (answer !== undefined && last && last.block === index && last.answer === undefined) last.answer = answer;
        continue;
      }
      while (line.endsWith('\\') && i + 1 < lines.length) line = `${line.slice(0, -1)} ${lines[++i]!.trim()}`;
      commands.push({ text: line.replace(/\s+#\s.*$/, '').trim(), answer: /\s#\s→\s(.*)$/.exec(line)?.[1], block: index });
    }
  });
  return { startEnv, commands };
}

/** What an answer shows: its fields (top level, and the first element of its lists), or the headers of `curl -i`. */
function fieldsOf(output: string): Map<string, string> {
  const fields = new Map<string, string>();
  let body = output;
  if (/^HTTP\/[\d.]+ \d{3}/.test(output)) {
    const split = output.search(/\r?\n\r?\n/);
    for (const line of output.slice(0, split).split(/\r?\n/).slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) fields.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    body = output.slice(split).trim();
  }
  const reset = /reset-password\?token=([^\s&"]+)/.exec(output);
  if (reset) fields.set('reset_token', decodeURIComponent(reset[1]!));
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return fields;
  }
  const take = (object: unknown, overwrite: boolean) => {
    if (!object || typeof object !== 'object' || Array.isArray(object)) return;
    for (const [key, value] of Object.entries(object)) {
      if ((typeof value === 'string' || typeof value === 'number') && (overwrite || !fields.has(key))) fields.set(key, String(value));
    }
  };
  take(json, true);
  for (const value of Object.values((json as Record<string, unknown>) ?? {})) if (Array.isArray(value)) take(value[0], false);
  return fields;
}

/** Every `key` and `key=value` (for strings) anywhere in a JSON value. */
function pairsIn(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => pairsIn(v, into));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      into.add(k);
      if (typeof v === 'string') into.add(`${k}=${v}`);
      pairsIn(v, into);
    }
  }
  return into;
}

function run(command: string, cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

const readme = await readFile(path.join(REPOSITORY, 'docs', 'api-walkthrough.md'), 'utf8');
const walkthrough = parseWalkthrough(readme);

let dataDir: string;
let apiPort: number;
let fakePort: number;
let server: NpmStart;
const background: ChildProcess[] = [];
const values = new Map<string, string>();
let lastTotpStep = 0;

/** The walkthrough's ports and paths, made this run's. */
const localize = (text: string) =>
  text.replace(/\b3000\b/g, String(apiPort)).replace(/\b3001\b/g, String(fakePort)).replace(/(^|[\s'"=])\.data\//g, `$1${dataDir}/`);

async function placeholder(name: string, command: Command): Promise<string> {
  if (name === 'totp_code') {
    const secret = values.get('secret');
    if (!secret) throw new Error(`${command.text}: <totp_code> before any answer carried a secret`);
    // A code is accepted once per 30-second step: wait for a new step, as a user would.
    while (Math.floor(Date.now() / 30_000) <= lastTotpStep) await sleep(500);
    lastTotpStep = Math.floor(Date.now() / 30_000);
    return totpCode(secret, Math.floor(Date.now() / 1000));
  }
  const value = values.get(name);
  if (value === undefined) throw new Error(`The walkthrough's command uses <${name}>, but no earlier answer had a field ${name}:\n${command.text}`);
  return value;
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'tessera-readme-'));
  apiPort = await freePort();
  fakePort = await freePort();
  const env = Object.fromEntries(Object.entries(walkthrough.startEnv).map(([k, v]) => [k, localize(v)]));
  server = await startNpmStart({ ...env, PORT: String(apiPort), TESSERA_DATA_DIR: dataDir });
});
afterAll(async () => {
  for (const child of background) {
    const processes = await descendantsOf(child.pid!);
    for (const p of [{ pid: child.pid! }, ...processes]) if (isAlive(p.pid)) process.kill(p.pid, 'SIGTERM');
  }
  await server?.stop('SIGTERM');
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('the API walkthrough (docs), run against npm start', () => {
  it('has runnable blocks (sign-in, MFA, connections, PATs, password reset)', () => {
    expect(walkthrough.commands.length).toBeGreaterThan(15);
    expect(walkthrough.startEnv).toHaveProperty('TESSERA_BOOTSTRAP_ADMIN_EMAIL');
    for (const path of ['/v1/mfa/enroll/confirm', '/v1/mfa/challenge', '/v1/connections', '/test', '/v1/audit-events', '/v1/tokens', '/v1/auth/password/reset']) {
      expect(walkthrough.commands.some((c) => c.text.includes(path)), path).toBe(true);
    }
  });

  it('every documented command answers as the walkthrough says', async () => {
    let curls = 0;
    let executed = 0;
    for (const command of walkthrough.commands) {
      let text = localize(command.text);
      for (const m of [...text.matchAll(/<([a-z_]+)>/g)]) text = text.replace(m[0], await placeholder(m[1]!, command));

      if (text.endsWith('&')) {
        // A server of the walkthrough: started in the background, ready once it says something.
        const child = spawn('bash', ['-c', text.slice(0, -1)], { cwd: REPOSITORY, stdio: ['ignore', 'pipe', 'pipe'] });
        background.push(child);
        const said = await new Promise<string>((resolve, reject) => {
          let out = '';
          child.stdout.on('data', (c: Buffer) => {
            out += c.toString();
            if (/ on http:\/\/\S+/.test(out)) resolve(out);
          });
          child.once('exit', (code) => reject(new Error(`${command.text} exited (${code}) before it was ready:\n${out}`)));
        });
        if (command.answer) expect(said).toContain(localize(command.answer).split(' (')[0]!);
        continue;
      }

      const isCurl = text.startsWith('curl ');
      const { code, output } = await run(isCurl ? `${text} -w '\\n%{http_code}'` : text, REPOSITORY);
      const what = `${command.text}\n→ ${output.slice(0, 1500)}`;
      expect(code, what).toBe(0);
      let answer = output;
      if (isCurl) {
        curls++;
        const status = Number(output.slice(output.lastIndexOf('\n') + 1));
        answer = output.slice(0, output.lastIndexOf('\n'));
        const expected = /^(?:HTTP\/[\d.]+ )?(\d{3})\b/.exec(command.answer ?? '')?.[1];
        if (expected) expect(status, what).toBe(Number(expected));
        else expect(status, what).toBeLessThan(400);
      }
      // The fields the walkthrough shows, and the values it shows in full (not elided with …).
      const documented = [...(command.answer ?? '').matchAll(/"([a-z_]+)":("([^"]*)")?/g)].map((m) => (m[3] !== undefined && !m[3].includes('…') ? `${m[1]}=${localize(m[3])}` : m[1]!));
      if (documented.length) {
        const found = pairsIn(JSON.parse(answer.slice(answer.indexOf('{'))));
        expect(documented.filter((k) => !found.has(k)), `what the README shows but the answer lacks: ${what}`).toEqual([]);
      }
      executed++;
      for (const [name, value] of fieldsOf(answer)) values.set(name, value);
    }
    expect(curls).toBeGreaterThan(15);
    console.info(`README walkthrough: ${executed} commands run (${curls} curl), ${walkthrough.commands.length - executed} in the background`);
  });
});
