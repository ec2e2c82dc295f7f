/**
 * `npm run bench`: latency of the hot paths against a baseline measured in the same run
 * (a raw DynamoDB Local GetItem), and the size of every function bundle.
 *
 * Everything runs on this machine: DynamoDB Local, the local host with the real handlers, and
 * the client. Figures are ratios to the baseline, so they compare across machines; absolute
 * milliseconds are printed beside them for the record.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { integrations } from '../shared/connectors/catalog';
import { loadConfig } from '../shared/config';
import { verifyPassword, hashPassword } from '../shared/crypto/passwords';
import { createDeps, setDeps } from '../shared/deps';
import { createTenant } from '../shared/identity/tenants';
import { keys } from '../shared/store/keys';
import { ensureTable, startDynamoDbLocal } from '../infra/local/dynamodb-local';
import { startLocalHost } from '../infra/local/server';
import { measureBundles } from './bundle-sizes';
import { latency, printTable, type Row } from './measure';

process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 300);
const LOGIN_ITERATIONS = Number(process.env.BENCH_LOGIN_ITERATIONS ?? 40);
const PASSWORD = 'bench password that is long enough';

async function main() {
  const dynamo = await startDynamoDbLocal({});
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tessera-bench-'));
  const config = loadConfig({ ...process.env, DYNAMODB_ENDPOINT: dynamo.endpoint, TESSERA_TABLE: 'bench', TESSERA_DATA_DIR: dataDir, PORT: '0', TESSERA_RATE_AUTH_IP_REQUESTS: '1000000', TESSERA_RATE_LOGIN_ACCOUNT_FAILURES: '10000', TESSERA_RATE_LOGIN_ACCOUNT_IP_FAILURES: '10000', TESSERA_PASSWORD_RESET_RESPONSE_FLOOR_MS: '0' });
  const deps = await createDeps(config);
  await ensureTable(deps.db, config.tableName);
  setDeps(deps);
  const host = await startLocalHost({ port: 0 });
  try {
    const created = await createTenant(deps, { slug: 'bench', name: 'Bench', emailDomains: ['bench.test'], adminEmail: 'admin@bench.test', adminPassword: PASSWORD });
    // No MFA: the bench measures the password path and token checks, not TOTP.
    await deps.table.put({ Item: { ...keys.mfaPolicy(created.tenant.id), tenant_id: created.tenant.id, mfa_mode: 'OFF', required_actions: [], created_at: '', updated_at: '' } });

    const post = (p: string, body: unknown, token?: string) =>
      fetch(`${host.url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
    const get = (p: string, token: string) => fetch(`${host.url}${p}`, { headers: { authorization: `Bearer ${token}` } });
    const ensureOk = async (r: Response) => {
      if (!r.ok) throw new Error(`bench request failed: ${r.status} ${await r.text()}`);
      await r.arrayBuffer();
    };

    const loginBody = { email: 'admin@bench.test', password: PASSWORD };
    const session = (await (await post('/v1/auth/login', loginBody)).json()) as { access_token: string };
    const pat = (await (await post('/v1/tokens', { name: 'bench', scopes: ['users:read', 'connections:read'] }, session.access_token)).json()) as { token: string };

    const baseline = await latency('DynamoDB GetItem (baseline)', ITERATIONS, () =>
      deps.db.send(new GetCommand({ TableName: config.tableName, Key: keys.user(created.tenant.id, created.admin.id), ConsistentRead: true })),
    );
    const rows: Row[] = [baseline];
    rows.push(await latency('GET /v1/me (JWT)', ITERATIONS, async () => ensureOk(await get('/v1/me', session.access_token))));
    rows.push(await latency('GET /v1/me (PAT)', ITERATIONS, async () => ensureOk(await get('/v1/me', pat.token))));
    const storedHash = await hashPassword(PASSWORD);
    const argon = await latency('  of which Argon2id verify', LOGIN_ITERATIONS, () => verifyPassword(storedHash, PASSWORD));
    const loginRow = await latency('POST /v1/auth/login', LOGIN_ITERATIONS, async () => ensureOk(await post('/v1/auth/login', loginBody)));
    rows.push(loginRow, argon);

    // Password reset request: an existing account (token, audit event, .eml) against an
    // unknown one, without the response floor: the gap is what the floor has to hide.
    const forgotKnown = await latency('POST /v1/auth/password/forgot (account)', LOGIN_ITERATIONS, async () => ensureOk(await post('/v1/auth/password/forgot', { email: 'admin@bench.test' })));
    const forgotUnknown = await latency('POST /v1/auth/password/forgot (no account)', LOGIN_ITERATIONS, async () => ensureOk(await post('/v1/auth/password/forgot', { email: 'nobody@bench.test' })));
    rows.push(forgotKnown, forgotUnknown);

    // Connections: one read, a page of 100, and a create (transaction with its audit event)
    // against a raw TransactWriteItems of two items.
    const integration = integrations[0]!;
    const connectionBody = { integration_id: integration.integration_id, name: 'bench', scope: integration.examples.scope, schedule: { type: 'daily', hour: 2, minute: 0 }, configuration: integration.examples.configuration };
    const connectionIds: string[] = [];
    for (let i = 0; i < 100; i++) {
      const res = await post('/v1/connections', connectionBody, session.access_token);
      connectionIds.push(((await res.json()) as { connection_id: string }).connection_id);
    }
    rows.push(await latency('GET /v1/connections/{id}', ITERATIONS, async () => ensureOk(await get(`/v1/connections/${connectionIds[0]}`, session.access_token))));
    rows.push(await latency('GET /v1/connections?limit=100 (100 items)', Math.ceil(ITERATIONS / 3), async () => ensureOk(await get('/v1/connections?limit=100', session.access_token))));
    let n = 0;
    const rawTransaction = await latency('TransactWriteItems, 2 items (baseline 2)', ITERATIONS, () =>
      deps.db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: config.tableName, Item: { PK: `BENCH#${n}`, SK: 'A', v: 'x'.repeat(600) } } },
            { Put: { TableName: config.tableName, Item: { PK: `BENCH#${n++}`, SK: 'B', v: 'x'.repeat(300) } } },
          ],
        }),
      ),
    );
    const createRow = await latency('POST /v1/connections', ITERATIONS, async () => ensureOk(await post('/v1/connections', connectionBody, session.access_token)));
    rows.push(rawTransaction, createRow);

    printTable(rows, baseline);
    console.log(`\nPOST /v1/connections against a raw 2-item TransactWriteItems: p50 ×${(createRow.p50 / rawTransaction.p50).toFixed(1)}, p99 ×${(createRow.p99 / rawTransaction.p99).toFixed(1)}`);
    console.log(`\nArgon2id share of a login (p50): ${((argon.p50 / loginRow.p50) * 100).toFixed(0)} %`);
    console.log(`Password reset request, existing against unknown account, floor off (p50): ×${(forgotKnown.p50 / forgotUnknown.p50).toFixed(1)}, +${(forgotKnown.p99 - forgotUnknown.p50).toFixed(1)} ms at p99 (floor: ${loadConfig({}).passwordResetResponseFloorMs} ms)`);
  } finally {
    await host.close();
    await dynamo.stop();
  }

  console.log('\nFunction bundles (esbuild, minified, ESM, arm64 Node 22 settings of the stack):');
  for (const b of await measureBundles()) console.log(`  ${b.handler.padEnd(28)} ${(b.bytes / 1024).toFixed(0).padStart(6)} KiB`);

  if (process.env.BENCH_SKIP_DISCOVERY === '1') return;
  // A process of its own (its DynamoDB Local, its org server, its worker): about 20 minutes at
  // the default size, bound by Okta's rate limits as a real org's discovery is.
  console.log('\nDiscovery runs (bench/discovery-run.ts):');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./discovery-run.ts', import.meta.url))], { stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the discovery bench exited with ${code}`))));
  });
}

await main();
