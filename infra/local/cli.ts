/**
 * `npm run tessera -- <command>`: operations on a Tessera table, local or in AWS.
 * Local (the default stage): DYNAMODB_ENDPOINT, else the DynamoDB Local that `npm start`
 * serves from the data directory, else a DynamoDB Local started just for this command.
 * AWS: TESSERA_STAGE=aws with the normal SDK credential chain, TESSERA_TABLE, TESSERA_KMS_KEY_ARN,
 * TESSERA_SIGNING_KEY_SECRET_ARN, TESSERA_CURSOR_KEY_SECRET_ARN and TESSERA_AUDIT_ANCHOR_BUCKET.
 * Exit codes: 0 done, 1 usage, 2 failure, 3 an audit chain that does not verify.
 */
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { TOTP_PERIOD_SECONDS, totpCode } from '../../shared/crypto/totp';
import { checkAuditChain } from '../../shared/audit/audit-chain-check';
import { loadConfig, type Config } from '../../shared/config';
import { createDeps } from '../../functions/start/deps-assembly';
import { verifyEmailDomainAsOperator } from '../../shared/identity/email-domains';
import { DomainName } from '../../shared/identity/schemas';
import { rotateSigningKey } from '../../shared/identity/signing-key-rotation';
import { createTenant } from '../../shared/identity/tenants';
import { parseWith } from '../../shared/schemas/validation';
import { integrations } from '../../shared/connectors/catalog';
import { licensedIntegrationIds, setTenantLicense } from '../../shared/connections/integration-licenses';
import { getTenant, getTenantBySlug, getWorkspace } from '../../shared/store/identity-items';
import { createDynamoDbClient } from '../../shared/store/client';
import { ensureTable, findRunningDynamoDbLocal, startDynamoDbLocal } from './dynamodb-local';

process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'; // Lambda runs Node 22

const HELP = `Usage: npm run tessera -- <command> [options]

Commands:
  create-tenant --slug <slug> --admin-email <email> [--name <name>] [--email-domain <domain> ...]
                [--workspace-name <name>] [--admin-password <password>]
      Creates a tenant, its first workspace and its admin. The admin's email domain is claimed
      unless --email-domain is given; these domains are verified on your word (no DNS check,
      never re-checked). The password comes from --admin-password or (better: it
      stays out of shell history) TESSERA_ADMIN_PASSWORD; without one the admin has none yet.
  verify-audit --tenant <slug or id> [--workspace <id>]
      Walks the hash chain of the tenant's identity audit log (or of the workspace's log),
      compares it with the heads its appends recorded in the audit anchor (in AWS the Object
      Lock bucket, TESSERA_AUDIT_ANCHOR_BUCKET; locally the append-only file under the data
      directory), and prints OK with the number of events, or the first broken link (its seq
      and event id, and why) and exits with 3: an event edited, deleted or moved, the newest
      events cut off, an empty identity log (every tenant's starts with tenant_created), events
      no anchored head covers. An unknown tenant or workspace is refused (exit 1). In AWS it
      needs s3:ListBucket on the anchor bucket and the table reads.
  verify-domain --slug <slug> --email-domain <domain> [--email-domain <domain> ...]
      Marks domains verified for an existing tenant on your word, without DNS (audited as
      domain_verified with method operator); refused for a domain another tenant verified.
  license --tenant <slug or id> [--integrations <id>,<id>... | --all]
      Sets which integrations of the catalog the tenant may use (audited in the tenant's log);
      --all lifts the restriction. Without either it shows the current licence. A tenant never
      licensed may use all integrations. Integrations: ${integrations.map((i) => i.integration_id).join(', ')}.
  rotate-signing-key
      Rotates the JWT signing key: publishes a new public key, makes its seed the signing
      secret's current value, and retires the old key (it keeps verifying the tokens it signed
      until the printed time). Prints key ids, never key material. In AWS it needs
      secretsmanager:PutSecretValue on the signing secret and the table.
  create-table
      Creates the table when missing (local DynamoDB; in AWS the stack owns the table).
  totp --secret <base32> [--next]
      Prints the current code of a TOTP secret (the \`secret\` that enrollment answers), alone
      on stdout, and on stderr the seconds it stays valid: an authenticator app for the terminal
      (CODE=$(npm run -s tessera -- totp --secret …) keeps the code only). A code works once:
      --next waits for the next 30-second step (at most 30 s) and prints its code, which no
      earlier sign-in can have used. Touches no table.
  help
      This text.

Environment: TESSERA_STAGE (local|aws), TESSERA_TABLE, DYNAMODB_ENDPOINT, TESSERA_DATA_DIR,
AWS_REGION, TESSERA_KEY_CACHE_SECONDS (as deployed: it sets how long a retired key verifies);
for aws also TESSERA_KMS_KEY_ARN, TESSERA_SIGNING_KEY_SECRET_ARN, TESSERA_CURSOR_KEY_SECRET_ARN and
TESSERA_AUDIT_ANCHOR_BUCKET.`;

class UsageError extends Error {}


async function run(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      slug: { type: 'string' },
      name: { type: 'string' },
      'admin-email': { type: 'string' },
      'admin-password': { type: 'string' },
      'email-domain': { type: 'string', multiple: true },
      'workspace-name': { type: 'string' },
      tenant: { type: 'string' },
      workspace: { type: 'string' },
      integrations: { type: 'string' },
      all: { type: 'boolean' },
      secret: { type: 'string' },
      next: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...extra] = positionals;
  if (values.help || command === 'help') {
    console.log(HELP);
    return;
  }
  if (command === undefined) throw new UsageError('a command is required');
  if (extra.length) throw new UsageError(`unexpected argument ${extra[0]}`);

  switch (command) {
    case 'create-tenant': {
      const slug = values.slug;
      const adminEmail = values['admin-email'];
      if (!slug) throw new UsageError('--slug is required');
      if (!adminEmail) throw new UsageError('--admin-email is required');
      const emailDomains = values['email-domain'] ?? [adminEmail.slice(adminEmail.lastIndexOf('@') + 1)];
      const adminPassword = values['admin-password'] ?? (process.env.TESSERA_ADMIN_PASSWORD || undefined);
      await withConfig(async (config) => {
        const deps = await createDeps(config);
        try {
          // A local database may be brand new; in AWS the stack owns the table.
          if (config.dynamodbEndpoint) await ensureTable(deps.db, config.tableName);
          const created = await createTenant(deps, {
            slug,
            name: values.name ?? slug,
            emailDomains,
            adminEmail,
            adminPassword,
            ...(values['workspace-name'] ? { workspaceName: values['workspace-name'] } : {}),
          });
          console.log(`Created tenant ${created.tenant.slug} (${created.tenant.id}) with the verified domains ${created.tenant.email_domains.join(', ')}`);
          console.log(`  workspace ${created.workspace.id}`);
          console.log(`  admin ${created.admin.email} (${created.admin.id})${adminPassword ? '' : ', no password set'}`);
        } finally {
          deps.db.destroy();
        }
      });
      return;
    }
    case 'verify-audit': {
      const tenantRef = values.tenant;
      if (!tenantRef) throw new UsageError('--tenant is required');
      const workspaceId = values.workspace;
      await withConfig(async (config) => {
        const deps = await createDeps(config);
        try {
          const tenant = tenantRef.startsWith('ten_') ? await getTenant(deps, tenantRef) : await getTenantBySlug(deps, tenantRef);
          if (!tenant) throw new UsageError(`no tenant ${tenantRef} (give its slug or its id)`);
          if (workspaceId && !(await getWorkspace(deps, tenant.id, workspaceId))) throw new UsageError(`no workspace ${workspaceId} in tenant ${tenant.slug} (${tenant.id})`);
          const where = `tenant ${tenant.slug} (${tenant.id}), ${workspaceId ? `workspace ${workspaceId} audit log` : 'identity audit log'}`;
          const result = await checkAuditChain(deps, { tenantId: tenant.id, workspaceId });
          if (result.ok) {
            console.log(`OK: ${result.count} events, chain intact and anchored (${where})`);
          } else {
            const { seq, eventId, reason } = result.brokenAt;
            console.log(`BROKEN at seq ${seq} (event ${eventId ?? 'none'}): ${reason} (${where}; ${result.count} events verified before it)`);
            process.exitCode = 3;
          }
        } finally {
          deps.db.destroy();
        }
      });
      return;
    }
    case 'verify-domain': {
      const slug = values.slug;
      if (!slug) throw new UsageError('--slug is required');
      if (!values['email-domain']?.length) throw new UsageError('--email-domain is required');
      const domains = values['email-domain'].map((d, i) => parseWith(DomainName, d, `--email-domain ${i + 1}`));
      await withConfig(async (config) => {
        const deps = await createDeps(config);
        try {
          const tenant = await getTenantBySlug(deps, slug);
          if (!tenant) throw new UsageError(`no tenant ${slug}`);
          for (const domain of domains) {
            await verifyEmailDomainAsOperator(deps, tenant.id, domain);
            console.log(`Verified ${domain} for tenant ${tenant.slug} (${tenant.id})`);
          }
        } finally {
          deps.db.destroy();
        }
      });
      return;
    }
    case 'license': {
      const tenantRef = values.tenant;
      if (!tenantRef) throw new UsageError('--tenant is required');
      if (values.all && values.integrations !== undefined) throw new UsageError('give --integrations or --all, not both');
      const wanted = values.integrations?.split(',').map((id) => id.trim()).filter((id) => id !== '');
      if (wanted !== undefined && wanted.length === 0) throw new UsageError('--integrations needs at least one integration id (or use --all)');
      const unknown = (wanted ?? []).filter((id) => !integrations.some((i) => i.integration_id === id));
      if (unknown.length) throw new UsageError(`unknown integration ${unknown.join(', ')}; the catalog has ${integrations.map((i) => i.integration_id).join(', ')}`);
      await withConfig(async (config) => {
        const deps = await createDeps(config);
        try {
          const tenant = tenantRef.startsWith('ten_') ? await getTenant(deps, tenantRef) : await getTenantBySlug(deps, tenantRef);
          if (!tenant) throw new Error(`no tenant ${tenantRef}`);
          const describe = (ids: readonly string[] | null | undefined) => (ids ? ids.join(', ') : 'all integrations');
          if (wanted === undefined && !values.all) {
            console.log(`Tenant ${tenant.slug} (${tenant.id}) may use ${describe(await licensedIntegrationIds(deps, tenant.id))}`);
            return;
          }
          const record = await setTenantLicense(deps, tenant.id, values.all ? null : wanted!);
          console.log(`Tenant ${tenant.slug} (${tenant.id}) may now use ${describe(record.integrations)}`);
        } finally {
          deps.db.destroy();
        }
      });
      return;
    }
    case 'rotate-signing-key':
      await withConfig(async (config) => {
        const deps = await createDeps(config);
        try {
          if (config.dynamodbEndpoint) await ensureTable(deps.db, config.tableName);
          const rotation = await rotateSigningKey(deps);
          console.log(`Published and promoted signing key ${rotation.newKid} (issuers sign with it from their next key read, within ${config.keyCacheSeconds} s)`);
          for (const kid of rotation.retired) console.log(`  retiring ${kid}: verifies until ${rotation.retiringUntil.toISOString()}`);
        } finally {
          deps.db.destroy();
        }
      });
      return;
    case 'totp': {
      if (!values.secret) throw new UsageError('--secret is required');
      // Apps show secrets in groups of four and accept any case; so does this.
      const secret = values.secret.replace(/\s+/g, '').toUpperCase();
      if (!/^[A-Z2-7]+=*$/.test(secret)) throw new UsageError('--secret is not base32 (A-Z and 2-7, as enrollment answers it)');
      if (values.next) {
        // Past the end of the current step, so the code printed belongs to a later step than any printed before.
        const stepEnd = (Math.floor(Date.now() / 1000 / TOTP_PERIOD_SECONDS) + 1) * TOTP_PERIOD_SECONDS * 1000;
        await sleep(stepEnd - Date.now() + 50);
      }
      const now = Date.now() / 1000;
      const code = await totpCode(secret, now);
      const left = Math.ceil(TOTP_PERIOD_SECONDS - (now % TOTP_PERIOD_SECONDS));
      // The code alone on stdout, so that a script can take it; the note is for the person at the terminal.
      console.log(code);
      console.error(`(valid for ${left} more second${left === 1 ? '' : 's'}; each code works once)`);
      return;
    }
    case 'create-table':
      await withConfig(async (config) => {
        if (!config.dynamodbEndpoint) throw new UsageError('create-table is for a local DynamoDB; in AWS the stack owns the table');
        const db = createDynamoDbClient(config);
        try {
          const outcome = await ensureTable(db, config.tableName);
          console.log(`Table ${config.tableName} ${outcome === 'created' ? 'created' : 'exists'} at ${config.dynamodbEndpoint}`);
        } finally {
          db.destroy();
        }
      });
      return;
    default:
      throw new UsageError(`unknown command ${command}`);
  }
}

/** Runs `fn` with the configuration, reaching the local database first when there is one. */
async function withConfig(fn: (config: Config) => Promise<void>): Promise<void> {
  const config = loadConfig();
  if (config.dynamodbEndpoint || config.stage === 'aws') return fn(config);
  const dbPath = path.join(config.dataDir, 'dynamodb');
  const running = await findRunningDynamoDbLocal(dbPath);
  if (running) return fn(loadConfig({ ...process.env, DYNAMODB_ENDPOINT: running }));
  const dynamo = await startDynamoDbLocal({ dbPath });
  try {
    await fn(loadConfig({ ...process.env, DYNAMODB_ENDPOINT: dynamo.endpoint }));
  } finally {
    await dynamo.stop();
  }
}

try {
  await run(process.argv.slice(2));
} catch (error) {
  const code = (error as { code?: unknown } | undefined)?.code;
  const usage = error instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'));
  const message = error instanceof Error ? error.message : String(error);
  console.error(`tessera: ${usage ? `${message} (see: npm run tessera -- help)` : explain(error, message)}`);
  process.exitCode = usage ? 1 : 2;
}

function explain(error: unknown, message: string): string {
  if (error instanceof Error && error.name === 'ResourceNotFoundException') {
    return `${message}: the table does not exist (npm run tessera -- create-table, or npm start)`;
  }
  return message;
}
