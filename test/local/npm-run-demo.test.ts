/**
 * `npm run demo` as a newcomer runs it, on a fresh data directory, through HTTP only: the
 * password it prints and a code from the TOTP helper (`npm run tessera -- totp`) sign the admin
 * in; each of its three connections tests and runs green against its stand-in; and a person
 * of the demo IdP signs in by single sign-on.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser } from '../support/browser';
import { api, type HttpClient } from '../support/http-client';
import { descendantsOf, freeDemoPort, isAlive, REPOSITORY, startNpm } from '../support/npm-start';
import type { RunBody } from '../support/runs';

let dataDir: string;
let demo: Awaited<ReturnType<typeof startNpm>>;
let http: HttpClient;
let url: string;

function totpHelper(secret: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('npm', ['run', '--silent', 'tessera', '--', 'totp', '--secret', secret], { cwd: REPOSITORY }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`${error.message}\n${stderr}`));
      const code = /^(\d{6})$/m.exec(stdout)?.[1];
      return code ? resolve(code) : reject(new Error(`no code in: ${stdout}`));
    });
  });
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'tessera-demo-'));
  const port = await freeDemoPort();
  // A fresh machine: no bootstrap variables, so the demo chooses the admin's password.
  const env = { PORT: String(port), TESSERA_DATA_DIR: dataDir, TESSERA_BOOTSTRAP_ADMIN_EMAIL: '', TESSERA_BOOTSTRAP_ADMIN_PASSWORD: '' };
  for (const name of ['TESSERA_BOOTSTRAP_ADMIN_EMAIL', 'TESSERA_BOOTSTRAP_ADMIN_PASSWORD', 'TESSERA_CONNECTOR_ENDPOINTS', 'DYNAMODB_ENDPOINT', 'TESSERA_PUBLIC_URL']) delete process.env[name];
  demo = await startNpm(['run', 'demo'], Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')), /Ctrl-C stops Tessera and its stand-ins\./);
  url = /Tessera demo is ready: (http:\/\/\S+?)\/\n/.exec(demo.output())![1]!;
  http = api(url);
});

afterAll(async () => {
  if (demo) {
    const below = await descendantsOf(demo.child.pid!);
    await new Promise<void>((resolve) => {
      demo.child.once('exit', () => resolve());
      demo.child.kill('SIGINT');
    });
    // Ctrl-C stops what it started: its node (the stand-ins live in it) and DynamoDB Local's java.
    const essential = below.filter((p) => /^java |infra\/local\/demo\.ts/.test(p.command));
    expect(essential.map((p) => p.command)).toEqual(expect.arrayContaining([expect.stringMatching(/^java .*DynamoDBLocal\.jar/), expect.stringMatching(/infra\/local\/demo\.ts/)]));
    expect(essential.filter((p) => isAlive(p.pid)).map((p) => p.command)).toEqual([]);
    // Helpers (tsx's esbuild service) end when their pipe to the demo's node closes.
    for (const helper of below.filter((p) => !essential.includes(p))) while (isAlive(helper.pid)) await sleep(20);
  }
  await rm(dataDir, { recursive: true, force: true });
});

describe('npm run demo', () => {
  let token: string;

  it('prints a password and a TOTP secret that sign the admin in, with the TOTP helper\'s code', async () => {
    const output = demo.output();
    const password = /password (\S+)\n/.exec(output)?.[1];
    const secret = /totp --secret ([A-Z2-7]+)/.exec(output)?.[1];
    expect(password, output).toBeDefined();
    expect(secret, output).toBeDefined();
    const login = await http.request('POST', '/v1/auth/login', { body: { tenant: 'demo', email: 'admin@demo.test', password } });
    expect(login.status, login.text).toBe(200);
    const mfaToken = (login.body as { mfa_token: string }).mfa_token;
    expect(mfaToken).toMatch(/^tsr_mfa_/);
    // The demo's own enrollment used the code of its time step; a code works once, so within
    // that step the helper's code is refused as used and the next step's is accepted.
    for (let attempt = 0; ; attempt++) {
      const challenge = await http.request('POST', '/v1/mfa/challenge', { body: { mfa_token: mfaToken, code: await totpHelper(secret!) } });
      if (challenge.status === 200) {
        token = (challenge.body as { access_token: string }).access_token;
        break;
      }
      expect(challenge.status, challenge.text).toBe(401);
      expect(attempt, challenge.text).toBe(0);
      await sleep(30_000 - (Date.now() % 30_000) + 500);
    }
    const me = await http.request('GET', '/v1/me', { token });
    expect(me.body).toMatchObject({ email: 'admin@demo.test', role: 'admin', mfa_enrolled: true });
  });

  it('has one connection per integration; each tests and runs green against its stand-in', async () => {
    const integrations = ((await http.request('GET', '/v1/integrations', { token })).body as { integrations: { integration_id: string }[] }).integrations;
    const connections = ((await http.request('GET', '/v1/connections', { token })).body as { connections: { connection_id: string; integration_id: string; name: string; status: string }[] }).connections;
    expect(connections.map((c) => c.integration_id).sort()).toEqual(integrations.map((i) => i.integration_id).sort());
    expect(connections).toHaveLength(3);
    for (const connection of connections) {
      // The first start already ran each one to its end.
      expect(connection.status, connection.name).toBe('healthy');
      const test = await http.request('POST', `/v1/connections/${connection.connection_id}/test`, { token });
      expect(test.body, connection.name).toMatchObject({ status: 'success', remediation: [] });
      const started = await http.request('POST', `/v1/connections/${connection.connection_id}/runs`, { token });
      expect(started.status, started.text).toBe(202);
      let run = started.body as RunBody;
      while (run.status === 'queued' || run.status === 'running') {
        await sleep(250);
        run = (await http.request('GET', `/v1/connections/${connection.connection_id}/runs/${run.run_id}`, { token })).body as RunBody;
      }
      expect(run, connection.name).toMatchObject({ status: 'succeeded', errors: [] });
      expect(Object.values(run.counts.entities).reduce((a, b) => a + b, 0), connection.name).toBeGreaterThan(3);
    }
  });

  it('signs a person of the demo IdP in by SSO, routed there by the email domain', async () => {
    const discover = await http.request('GET', `/v1/auth/discover?email=${encodeURIComponent('alice@example.com')}`);
    expect(discover.body).toMatchObject({ tenant: 'demo', methods: ['sso'] });
    const back = `${url}/sign-in/sso`;
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const start = await http.request('GET', `/v1/auth/sso/demo/start?redirect_uri=${encodeURIComponent(back)}&state=s1&code_challenge=${challenge}&code_challenge_method=S256`);
    expect(start.status, start.text).toBe(302);
    const browser = new Browser();
    const authorize = await browser.get(start.headers.location!);
    expect(authorize.location, authorize.text).toMatch(/\/interaction\//);
    const submitted = await browser.postForm(authorize.location!, { login: 'alice', amr: 'pwd otp' });
    const resumed = await browser.get(submitted.location!);
    expect(resumed.location, resumed.text).toContain('/v1/auth/sso/demo/callback');
    const callback = await http.request('GET', resumed.location!);
    expect(callback.status, callback.text).toBe(302);
    const answer = new URL(callback.headers.location!);
    expect(`${answer.origin}${answer.pathname}`).toBe(back);
    const code = answer.searchParams.get('code');
    expect(code, answer.href).toMatch(/^tsr_code_/);
    const tokens = await http.request('POST', '/v1/auth/token', { body: { grant_type: 'sso_code', code, code_verifier: verifier } });
    expect(tokens.status, tokens.text).toBe(200);
    const me = await http.request('GET', '/v1/me', { token: (tokens.body as { access_token: string }).access_token });
    expect(me.body).toMatchObject({ email: 'alice@example.com', role: 'connector_builder' });
  });
});
