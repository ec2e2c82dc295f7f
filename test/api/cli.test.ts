/**
 * The ops CLI as an operator runs it: `npm run tessera -- <command>` in a child process, with
 * the environment pointing at the run's DynamoDB Local and a table of this file's own. Its
 * exit codes are its contract: 0 done, 1 usage (with the way to the help), 2 failure.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DeleteTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api } from '../support/http-client';
import { REPOSITORY } from '../support/npm-start';
import { startTestHost } from '../support/test-host';
import { deriveSigningKey } from '../../shared/crypto/signing-keys';
import { currentSigningKey } from '../../shared/identity/issuer-signing-key';

const table = `cli_${randomBytes(6).toString('hex')}`;
let dataDir: string;
const db = new DynamoDBClient({ endpoint: inject('dynamodbEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'tessera-cli-'));
});
afterAll(async () => {
  await db.send(new DeleteTableCommand({ TableName: table })).catch(() => undefined);
  db.destroy();
  await rm(dataDir, { recursive: true, force: true });
});

const withoutUnset = (env: Record<string, string | undefined>) => Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as Record<string, string>;

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI; an `undefined` in `env` leaves that variable out. */
function tessera(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      'npm',
      ['run', 'tessera', '--', ...args],
      {
        cwd: REPOSITORY,
        env: withoutUnset({
          ...process.env,
          TESSERA_STAGE: 'local',
          DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
          TESSERA_TABLE: table,
          TESSERA_DATA_DIR: dataDir,
          AWS_REGION: 'us-east-1',
          TESSERA_ADMIN_PASSWORD: '',
          ...env,
        }),
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe('npm run tessera: usage', () => {
  it('help (and --help) prints the commands and exits 0', async () => {
    for (const args of [['help'], ['--help']]) {
      const res = await tessera(args);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toContain('Usage: npm run tessera -- <command> [options]');
      for (const command of ['create-tenant --slug <slug> --admin-email <email>', 'rotate-signing-key', 'create-table']) expect(res.stdout).toContain(command);
    }
  });

  const usageErrors: [string, string[], string][] = [
    ['no command', [], 'a command is required'],
    ['an unknown command', ['make-coffee'], 'unknown command make-coffee'],
    ['an extra argument', ['create-table', 'now'], 'unexpected argument now'],
    ['an unknown option', ['create-table', '--force'], "Unknown option '--force'"],
    ['create-tenant without --slug', ['create-tenant', '--admin-email', 'a@b.example'], '--slug is required'],
    ['create-tenant without --admin-email', ['create-tenant', '--slug', 'acme'], '--admin-email is required'],
    ['an option without its value', ['create-tenant', '--slug'], "Option '--slug <value>' argument missing"],
  ];
  for (const [what, args, message] of usageErrors) {
    it(`${what}: exit 1, says what is wrong and where the help is`, async () => {
      const res = await tessera(args);
      expect(res.code, `${res.stdout}\n${res.stderr}`).toBe(1);
      expect(res.stderr).toContain(`tessera: ${message}`);
      expect(res.stderr).toContain('(see: npm run tessera -- help)');
    });
  }

  it('a usage error touches no table', async () => {
    const untouched = `cli_${randomBytes(6).toString('hex')}`;
    expect((await tessera(['create-tenant', '--slug', 'nothing-made'], { TESSERA_TABLE: untouched })).code).toBe(1);
    await expect(db.send(new DescribeTableCommand({ TableName: untouched }))).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
  });
});

describe('npm run tessera -- totp', () => {
  /** What the command printed on stdout besides npm's own `> script` banner: the code and nothing else. */
  const printedCode = (stdout: string) => {
    const lines = stdout.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('> '));
    expect(lines, stdout).toHaveLength(1);
    expect(lines[0], stdout).toMatch(/^\d{6}$/);
    return lines[0]!;
  };
  // otplib, an implementation of RFC 6238 independent of Tessera's, says which codes are right.
  const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
  it('prints the code of the current step (alone on stdout, for scripts) and the seconds it stays valid, from a table-free run', async () => {
    const started = Math.floor(Date.now() / 1000);
    const untouched = `cli_${randomBytes(6).toString('hex')}`;
    const res = await tessera(['totp', '--secret', 'jbsw y3dp ehpk 3pxp jbsw y3dp ehpk 3pxp'], { TESSERA_TABLE: untouched });
    const ended = Math.ceil(Date.now() / 1000);
    expect(res.code, res.stderr).toBe(0);
    const code = printedCode(res.stdout);
    // The run took some time: its code is the code of one of the steps it spanned, and the
    // seconds left place it in that step.
    const candidates = new Map<string, number>();
    for (let t = started; t <= ended; t++) candidates.set(await generate({ secret, epoch: t, period: 30 }), t);
    expect(candidates.get(code), `${code} is none of ${[...candidates.keys()].join(', ')}`).toBeDefined();
    const left = Number(/^\(valid for (\d+) more seconds?; each code works once\)$/m.exec(res.stderr)?.[1]);
    expect(left, res.stderr).toBeGreaterThanOrEqual(1);
    expect(left).toBeLessThanOrEqual(30);
    await expect(db.send(new DescribeTableCommand({ TableName: untouched }))).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
  });

  it('--next waits for the next step and prints its code: a code no sign-in of the current step can have used', async () => {
    const startedStep = Math.floor(Date.now() / 1000 / 30);
    const res = await tessera(['totp', '--secret', secret, '--next']);
    const endedStep = Math.floor(Date.now() / 1000 / 30);
    expect(res.code, res.stderr).toBe(0);
    const code = printedCode(res.stdout);
    const laterSteps = new Map<string, number>();
    for (let step = startedStep + 1; step <= endedStep; step++) laterSteps.set(await generate({ secret, epoch: step * 30, period: 30 }), step);
    expect(laterSteps.size, 'the command returned only after a new step began').toBeGreaterThan(0);
    expect(laterSteps.has(code), `${code} is the code of none of the steps after ${startedStep}`).toBe(true);
  }, 120_000);

  for (const [what, args, message] of [
    ['without --secret', ['totp'], '--secret is required'],
    ['a secret that is not base32', ['totp', '--secret', 'not-base32!'], '--secret is not base32'],
  ] as const) {
    it(`${what}: exit 1 with the reason`, async () => {
      const res = await tessera([...args]);
      expect(res.code, res.stdout).toBe(1);
      expect(res.stderr).toContain(`tessera: ${message}`);
    });
  }
});

describe('npm run tessera: against a local DynamoDB', () => {
  it('create-table creates the table, then finds it', async () => {
    const own = `cli_${randomBytes(6).toString('hex')}`;
    try {
      const first = await tessera(['create-table'], { TESSERA_TABLE: own });
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toContain(`Table ${own} created at ${inject('dynamodbEndpoint')}`);
      expect((await db.send(new DescribeTableCommand({ TableName: own }))).Table?.TableStatus).toBe('ACTIVE');
      const again = await tessera(['create-table'], { TESSERA_TABLE: own });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toContain(`Table ${own} exists`);
    } finally {
      await db.send(new DeleteTableCommand({ TableName: own })).catch(() => undefined);
    }
  });

  it('create-table refuses in AWS, where the stack owns the table (exit 1)', async () => {
    const res = await tessera(['create-table'], {
      TESSERA_STAGE: 'aws', DYNAMODB_ENDPOINT: undefined, TESSERA_KMS_KEY_ARN: 'arn:aws:kms:us-east-1:111122223333:key/x', TESSERA_SIGNING_KEY_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:111122223333:secret:x',
      TESSERA_CURSOR_KEY_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:111122223333:secret:y', TESSERA_AUDIT_ANCHOR_BUCKET: 'tessera-dev-anchors-111122223333',
    });
    expect(res.code, `${res.stdout}\n${res.stderr}`).toBe(1);
    expect(res.stderr).toContain('create-table is for a local DynamoDB; in AWS the stack owns the table');
  });

  it('rotate-signing-key puts a new seed, publishes its key and retires the old one, printing key ids only', async () => {
    const own = `cli_${randomBytes(6).toString('hex')}`;
    const keyDir = await mkdtemp(path.join(tmpdir(), 'tessera-cli-keys-'));
    const seedFile = path.join(keyDir, 'keys', 'jwt-signing-keys.json');
    const seed = async () => (JSON.parse(await readFile(seedFile, 'utf8')) as { seeds: string[] }).seeds[0]!;
    try {
      const env = { TESSERA_TABLE: own, TESSERA_DATA_DIR: keyDir };
      const first = await tessera(['rotate-signing-key'], env);
      expect(first.code, first.stderr).toBe(0);
      const firstSeed = await seed();
      const second = await tessera(['rotate-signing-key'], env);
      expect(second.code, second.stderr).toBe(0);
      const secondSeed = await seed();
      expect(secondSeed).not.toBe(firstSeed);

      const kid1 = deriveSigningKey(firstSeed).kid;
      const kid2 = deriveSigningKey(secondSeed).kid;
      expect(second.stdout).toContain(`Published and promoted signing key ${kid2} (issuers sign with it from their next key read, within 300 s)`);
      expect(second.stdout).toMatch(new RegExp(`  retiring ${kid1}: verifies until \\d{4}-\\d\\d-\\d\\dT`));
      for (const output of [first, second]) for (const secret of [firstSeed, secondSeed]) expect(output.stdout + output.stderr).not.toContain(secret);

      // A function started now signs with the new key; the JWKS still lists the keys retiring.
      const host = await startTestHost({ env });
      try {
        const jwks = await api(host.url).request('GET', '/v1/.well-known/jwks.json');
        const kids = (jwks.body as { keys: { kid: string }[] }).keys.map((k) => k.kid);
        expect(kids).toContain(kid1);
        expect(kids).toContain(kid2);
        expect(kids).toHaveLength(3); // the key before the first rotation retires too
        expect((await currentSigningKey(host.deps)).kid).toBe(kid2);
      } finally {
        await host.close();
      }
    } finally {
      await db.send(new DeleteTableCommand({ TableName: own })).catch(() => undefined);
      await rm(keyDir, { recursive: true, force: true });
    }
  });

  it('a bad configuration variable fails (exit 2) naming it, before any work', async () => {
    const res = await tessera(['create-table'], { DYNAMODB_ENDPOINT: 'not a url' });
    expect(res.code, `${res.stdout}\n${res.stderr}`).toBe(2);
    expect(res.stderr).toContain('tessera: Invalid configuration: DYNAMODB_ENDPOINT');
  });

  it('create-tenant makes a tenant whose admin can log in over the API; the same slug again fails with exit 2', async () => {
    const slug = `cli-${randomBytes(3).toString('hex')}`;
    const password = 'a passphrase set from the CLI';
    const res = await tessera(['create-tenant', '--slug', slug, '--admin-email', `admin@${slug}.example.test`, '--name', 'CLI Corp', '--workspace-name', 'Ops'], { TESSERA_ADMIN_PASSWORD: password });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`Created tenant ${slug} \\(ten_[a-z0-9]+\\) with the verified domains ${slug}\\.example\\.test`));
    expect(res.stdout).toMatch(/ {2}workspace ws_[a-z0-9]+/);
    expect(res.stdout).toMatch(new RegExp(`  admin admin@${slug}\\.example\\.test \\(usr_[a-z0-9]+\\)\\n`));
    // The secret is never echoed.
    expect(res.stdout + res.stderr).not.toContain(password);

    const again = await tessera(['create-tenant', '--slug', slug, '--admin-email', `other@${slug}.example.test`]);
    expect(again.code, `${again.stdout}\n${again.stderr}`).toBe(2);
    expect(again.stderr).toMatch(/^tessera: .*\S/m);
    expect(again.stderr).not.toContain('see: npm run tessera -- help');

    // (The test host drops its table when it closes: this is the last use of this one.)
    const host = await startTestHost({ env: { TESSERA_TABLE: table } });
    try {
      const login = await api(host.url).request('POST', '/v1/auth/login', { body: { email: `admin@${slug}.example.test`, password } });
      expect(login.status, JSON.stringify(login.body)).toBe(200);
      expect(login.body).toMatchObject({ mfa_required: true, enrollment_required: true });
    } finally {
      await host.close();
    }

  });

  it('create-tenant without a password says the admin has none yet', async () => {
    const slug = `cli-${randomBytes(3).toString('hex')}`;
    const res = await tessera(['create-tenant', '--slug', slug, '--admin-email', `admin@${slug}.example.test`, '--email-domain', `${slug}.example.test`, '--email-domain', `${slug}-eu.example.test`]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(`with the verified domains ${slug}.example.test, ${slug}-eu.example.test`);
    expect(res.stdout).toContain(', no password set');

    // verify-domain: the operator vouches for another domain of that tenant (no DNS).
    const added = await tessera(['verify-domain', '--slug', slug, '--email-domain', `${slug}-us.example.test.`]);
    expect(added.code, `${added.stdout}\n${added.stderr}`).toBe(0);
    expect(added.stdout).toMatch(new RegExp(`Verified ${slug}-us\\.example\\.test for tenant ${slug} \\(ten_[a-z0-9]+\\)`));
    const unknown = await tessera(['verify-domain', '--slug', `${slug}-nobody`, '--email-domain', `${slug}-x.example.test`]);
    expect(unknown.code, `${unknown.stdout}\n${unknown.stderr}`).toBe(1);
    expect(unknown.stderr).toContain(`no tenant ${slug}-nobody`);
    const junk = await tessera(['verify-domain', '--slug', slug, '--email-domain', '10.0.0.1']);
    expect(junk.code, `${junk.stdout}\n${junk.stderr}`).not.toBe(0);
    expect(junk.stdout).not.toContain('Verified');
    // Another tenant cannot have a domain this one verified.
    const other = `cli-${randomBytes(3).toString('hex')}`;
    expect((await tessera(['create-tenant', '--slug', other, '--admin-email', `admin@${other}.example.test`])).code).toBe(0);
    const taken = await tessera(['verify-domain', '--slug', other, '--email-domain', `${slug}-us.example.test`]);
    expect(taken.code, `${taken.stdout}\n${taken.stderr}`).toBe(2);
    expect(taken.stdout).not.toContain('Verified');
  });
});
