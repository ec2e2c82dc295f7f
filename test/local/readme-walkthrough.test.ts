/**
 * The API walkthrough (docs/api-walkthrough.md), run as a reader runs it: `npm run demo` started
 * as its `<!-- walkthrough:start -->` block says (with the variables the block sets), on a fresh
 * data directory and on a free PORT that is not 3000, given to both "terminals" as a reader who
 * changed PORT would; then every `sh` block under `<!-- walkthrough -->`, in order, command by
 * command, as written, in one bash (its variables carry on, as in the reader's terminal).
 * Nothing of the page is rewritten: a command that works only on port 3000, or only with
 * something pasted by hand, fails here.
 *
 * The shell's `curl` is a function around the real one that keeps the status and the body of
 * every request, so each `# → …` line is checked: a leading status exactly (else every request
 * of the command must succeed, < 400), and the field names and the whole values it shows (not
 * elided with …) in the command's last answer. A command that makes no request must print what
 * its `# → …` line shows (… for anything), and nothing else. Blocks added to the walkthrough
 * later are run the same way, with nothing to change here.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descendantsOf, freeDemoPort, isAlive, REPOSITORY, startNpm } from '../support/npm-start';

interface Command {
  /** As written (continuations kept), for the shell and for messages. */
  text: string;
  /** The `# → …` text that documents its answer, if any. */
  answer: string | undefined;
  block: number;
}

interface Walkthrough {
  /** From the `<!-- walkthrough:start -->` block: the variables it sets and its command. */
  start: { env: Record<string, string>; command: string } | undefined;
  commands: Command[];
}

/** The marked blocks of a page. */
export function parseWalkthrough(page: string): Walkthrough {
  const blocks = [...page.matchAll(/<!-- walkthrough(:start)? -->\s*\n```sh\n([\s\S]*?)\n```/g)];
  const start = blocks.find((b) => b[1] === ':start');
  if (!start) return { start: undefined, commands: commandsOf(blocks) };
  const startEnv: Record<string, string> = {};
  for (const m of start[2]!.matchAll(/(?:^|\s)([A-Z][A-Z0-9_]*)=('([^']*)'|"([^"]*)"|(\S+))/g)) startEnv[m[1]!] = m[3] ?? m[4] ?? m[5]!;
  const startCommand = start[2]!.replace(/\\\n/g, ' ').replace(/(?:^|\s)[A-Z][A-Z0-9_]*=('[^']*'|"[^"]*"|\S+)/g, '').replace(/\s+#\s.*$/, '').trim();
  return { start: { env: startEnv, command: startCommand }, commands: commandsOf(blocks) };
}

function commandsOf(blocks: RegExpExecArray[]): Command[] {
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
      while (line.endsWith('\\') && i + 1 < lines.length) line = `${line}\n${lines[++i]!}`;
      commands.push({ text: line, answer: undefined, block: index });
    }
  });
  return commands;
}

/** One request the shell's curl made: its last status (after redirects) and what it wrote out. */
interface Request {
  status: number | undefined;
  body: string;
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

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A bash that runs one command at a time, as a reader's terminal does, and says how each ended. */
class Terminal {
  private output = '';
  private waiting: (() => void) | undefined;
  private readonly marker = `__walkthrough_done_${process.pid}__`;

  constructor(private readonly shell: ChildProcessWithoutNullStreams) {
    shell.stdout.on('data', (chunk: Buffer) => {
      this.output += chunk.toString();
      this.waiting?.();
    });
    shell.once('exit', () => this.waiting?.());
  }

  static start(env: Record<string, string>, requestsDir: string): Terminal {
    const shell = spawn('bash', ['--noprofile', '--norc', '-s'], { cwd: REPOSITORY, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    const terminal = new Terminal(shell);
    // stderr joins stdout (a reader sees both); curl keeps each request's headers and body.
    shell.stdin.write(`exec 2>&1
curl() { local f="${requestsDir}/$(date +%s%N).$BASHPID.$RANDOM"; command curl -D "$f.headers" "$@" | tee -p "$f.body"; return "\${PIPESTATUS[0]}"; }
`);
    return terminal;
  }

  async run(command: string): Promise<{ code: number; output: string }> {
    this.output = '';
    this.shell.stdin.write(`${command}\nprintf '\\n${this.marker} %d\\n' "$?"\n`);
    const done = new RegExp(`\\n${this.marker} (\\d+)\\n$`);
    for (;;) {
      const m = done.exec(this.output);
      if (m) return { code: Number(m[1]), output: this.output.slice(0, m.index) };
      if (this.shell.exitCode !== null) throw new Error(`The shell ended (${this.shell.exitCode}) during: ${command}\n${this.output}`);
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }

  get pid() {
    return this.shell.pid!;
  }

  close() {
    this.shell.stdin.end();
  }
}

async function requestsSince(dir: string, seen: Set<string>): Promise<Request[]> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.body') && !seen.has(n)).sort();
  const requests: Request[] = [];
  for (const name of names) {
    seen.add(name);
    const body = await readFile(path.join(dir, name), 'utf8');
    const headers = await readFile(path.join(dir, name.replace(/\.body$/, '.headers')), 'utf8').catch(() => body); // `-D -` of the command's own
    const statuses = [...headers.matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)].map((m) => Number(m[1]));
    requests.push({ status: statuses.at(-1), body });
  }
  return requests;
}

const readPage = async (name: string) => parseWalkthrough(await readFile(path.join(REPOSITORY, 'docs', name), 'utf8'));
const walkthrough = await readPage('api-walkthrough.md');
/** Other pages whose marked blocks run beside the same demo, each in a terminal of its own. */
const otherPages = { 'local-mode.md': await readPage('local-mode.md') };

let dataDir: string;
let requestsDir: string;
let port: number;
let demo: Awaited<ReturnType<typeof startNpm>> | undefined;
let reader: Record<string, string>;
const terminals: Terminal[] = [];
const seen = new Set<string>();

/** Runs a page's commands in order in one terminal, checking each against its `# → …` line. */
async function runAsWritten(commands: Command[], terminal: Terminal): Promise<number> {
  let requestsMade = 0;
  for (const command of commands) {
    const { code, output } = await terminal.run(command.text);
    const requests = await requestsSince(requestsDir, seen);
    requestsMade += requests.length;
    const what = `${command.text}\n→ ${output.slice(0, 1500)}${requests.length ? `\nlast answer: ${requests.at(-1)!.status} ${requests.at(-1)!.body.slice(0, 1500)}` : ''}`;
    expect(code, what).toBe(0);
    // The answers are written for the default port.
    const answer = command.answer?.replaceAll('127.0.0.1:3000', `127.0.0.1:${port}`);
    if (requests.length === 0) {
      if (answer !== undefined) expect(output.trim(), what).toMatch(new RegExp(`^${answer.split('…').map(escapeRegExp).join('.*')}$`));
      continue;
    }
    const last = requests.at(-1)!;
    const expected = /^(?:HTTP\/[\d.]+ )?(\d{3})\b/.exec(answer ?? '')?.[1];
    if (expected) expect(last.status, what).toBe(Number(expected));
    else for (const request of requests) expect(request.status, what).toBeLessThan(400);
    // The fields the walkthrough shows, and the values it shows in full (not elided with …).
    const documented = [...(answer ?? '').matchAll(/"([a-z_]+)":("([^"]*)")?/g)].map((m) => (m[3] !== undefined && !m[3].includes('…') ? `${m[1]}=${m[3]}` : m[1]!));
    if (documented.length) {
      const found = pairsIn(JSON.parse(last.body.slice(last.body.indexOf('{'))));
      expect(documented.filter((k) => !found.has(k)), `what the walkthrough shows but the answer lacks: ${what}`).toEqual([]);
    }
  }
  return requestsMade;
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'tessera-walkthrough-'));
  requestsDir = await mkdtemp(path.join(tmpdir(), 'tessera-walkthrough-requests-'));
  port = await freeDemoPort();
  // The reader's environment: none of the variables a developer of Tessera may have set.
  for (const name of ['TESSERA_BOOTSTRAP_ADMIN_EMAIL', 'TESSERA_BOOTSTRAP_ADMIN_PASSWORD', 'TESSERA_BOOTSTRAP_TENANT', 'TESSERA_CONNECTOR_ENDPOINTS', 'DYNAMODB_ENDPOINT', 'TESSERA_PUBLIC_URL', 'TESSERA_OUTBOX_DIR']) delete process.env[name];
  reader = { PORT: String(port), TESSERA_DATA_DIR: dataDir };
  expect(walkthrough.start?.command).toBe('npm run demo');
  demo = await startNpm(['run', 'demo'], { ...walkthrough.start!.env, ...reader }, /Ctrl-C stops Tessera and its stand-ins\./);
  // An earlier try left a reset email in the outbox: the walkthrough must take the newest link.
  await mkdir(path.join(dataDir, 'outbox'), { recursive: true });
  const older = path.join(dataDir, 'outbox', 'an-earlier-try.eml');
  await writeFile(older, `Subject: Reset your Tessera password\r\n\r\nhttp://127.0.0.1:${port}/reset-password?token=tsr_reset_fromAnEarlierTryThatNoLongerWorks\r\n`);
  const anHourAgo = new Date(Date.now() - 3_600_000);
  await utimes(older, anHourAgo, anHourAgo);
}, 300_000); // the demo's first start tests and runs three connections: minutes on a loaded machine

afterAll(async () => {
  for (const terminal of terminals) {
    for (const p of [{ pid: terminal.pid }, ...(await descendantsOf(terminal.pid))]) if (isAlive(p.pid)) process.kill(p.pid, 'SIGTERM');
  }
  if (demo && demo.child.exitCode === null) {
    await new Promise<void>((resolve) => {
      demo!.child.once('exit', () => resolve());
      demo!.child.kill('SIGINT');
    });
  }
  for (const dir of [dataDir, requestsDir]) if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the API walkthrough (docs), run against npm run demo', () => {
  it('has runnable blocks (sign-in with the TOTP helper, connections, runs, PATs, users, sessions, reset, SSO)', () => {
    expect(walkthrough.commands.length).toBeGreaterThan(40);
    for (const part of ['totp --secret', '/v1/mfa/enroll/confirm', '/v1/mfa/challenge', '/v1/connections', '/test', '/runs', '/v1/audit-events', '/v1/tokens', '/v1/users', '/v1/auth/logout', '/v1/auth/password/reset', '/v1/auth/sso/demo/start', '/federated-identities']) {
      expect(walkthrough.commands.some((c) => c.text.includes(part)), part).toBe(true);
    }
    // Nothing to paste by hand, no port written out: the reader's PORT is the only one.
    expect(walkthrough.commands.filter((c) => /<[a-z_]+>|localhost:|127\.0\.0\.1:\d/.test(c.text)).map((c) => c.text)).toEqual([]);
  });

  it('every documented command runs as written and answers as the walkthrough says', async () => {
    const terminal = Terminal.start(reader, requestsDir);
    terminals.push(terminal);
    expect(await runAsWritten(walkthrough.commands, terminal)).toBeGreaterThan(40);
  });

  for (const [name, other] of Object.entries(otherPages)) {
    it(`docs/${name}: its marked blocks run as written beside the demo`, async () => {
      expect(other.commands.length).toBeGreaterThan(0);
      const terminal = Terminal.start(reader, requestsDir);
      terminals.push(terminal);
      await runAsWritten(other.commands, terminal);
    });
  }
});
