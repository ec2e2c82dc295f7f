/**
 * The one configuration loader: the only module that reads `process.env`.
 * Everything else receives a `Config` (through deps), so tests can build one explicitly.
 */
import path from 'node:path';
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

const intFromEnv = (fallback: number, min: number, max: number) =>
  z._default(z.coerce.number().check(z.int(), z.gte(min), z.lte(max)), fallback);

/**
 * Range and default of the settings an environment may set per deployment (infra/stack-settings.ts
 * validates its cdk.json values against these, so a synth refuses what a cold start would).
 */
export const deployableSettingBounds = {
  TESSERA_ACCESS_TOKEN_TTL_SECONDS: { default: 900, min: 900, max: 3600 },
  TESSERA_REFRESH_TOKEN_TTL_DAYS: { default: 30, min: 1, max: 365 },
  // The absolute lifetime of a session (a sign-in and its refreshes): 10 s lets a test watch
  // one end; the ceiling only keeps dates representable (the refresh token TTL caps it anyway).
  TESSERA_SESSION_MAX_SECONDS: { default: 2_592_000, min: 10, max: 3_153_600_000 },
  // At most 500: past the limit, every address without failures may still add one (up to 10 ×
  // the limit, rate-limits.ts), and each address is an attribute of about 40 bytes on the
  // account's window item, so 5,000 of them (200 KB) stay well under DynamoDB's 400 KB.
  TESSERA_RATE_LOGIN_ACCOUNT_FAILURES: { default: 10, min: 1, max: 500 },
  TESSERA_RATE_LOGIN_ACCOUNT_IP_FAILURES: { default: 5, min: 1, max: 10_000 },
  TESSERA_RATE_AUTH_IP_REQUESTS: { default: 300, min: 1, max: 1_000_000 },
  TESSERA_RATE_WINDOW_SECONDS: { default: 900, min: 1, max: 86_400 },
} as const;

const boundedIntFromEnv = (name: keyof typeof deployableSettingBounds) => {
  const { default: fallback, min, max } = deployableSettingBounds[name];
  return intFromEnv(fallback, min, max);
};

const EnvSchema = z.object({
  TESSERA_STAGE: z._default(z.enum(['local', 'aws']), 'local'),
  TESSERA_TABLE: z._default(z.string().check(z.minLength(1)), 'tessera'),
  DYNAMODB_ENDPOINT: z.optional(z.string().check(z.url())),
  AWS_REGION: z._default(z.string().check(z.minLength(1)), 'us-east-1'),
  TESSERA_DATA_DIR: z._default(z.string().check(z.minLength(1)), '.data'),
  TESSERA_OUTBOX_DIR: z.optional(z.string().check(z.minLength(1))),
  TESSERA_EMAIL_FROM: z._default(z.string().check(
    z.minLength(3),
    z.maxLength(320),
    z.regex(/^[^\r\n]*@[^\r\n]*$/, 'must be an email address, optionally with a display name'),
  ), 'Tessera <no-reply@tessera.local>'),
  TESSERA_SES_CONFIGURATION_SET: z.optional(z.string().check(z.minLength(1))),
  TESSERA_PASSWORD_RESET_RESPONSE_FLOOR_MS: intFromEnv(400, 0, 5_000),
  PORT: intFromEnv(3000, 0, 65535),
  TESSERA_PUBLIC_URL: z.optional(z.string().check(z.url())),
  TESSERA_JWT_AUDIENCE: z._default(z.string().check(z.minLength(1)), 'tessera'),
  TESSERA_ACCESS_TOKEN_TTL_SECONDS: boundedIntFromEnv('TESSERA_ACCESS_TOKEN_TTL_SECONDS'),
  TESSERA_REFRESH_TOKEN_TTL_DAYS: boundedIntFromEnv('TESSERA_REFRESH_TOKEN_TTL_DAYS'),
  TESSERA_SESSION_MAX_SECONDS: boundedIntFromEnv('TESSERA_SESSION_MAX_SECONDS'),
  TESSERA_SIGNING_KEY_SECRET_ARN: z.optional(z.string().check(z.minLength(1))),
  TESSERA_CURSOR_KEY_SECRET_ARN: z.optional(z.string().check(z.minLength(1))),
  TESSERA_KEY_CACHE_SECONDS: intFromEnv(300, 1, 3_600),
  TESSERA_KMS_KEY_ARN: z.optional(z.string().check(z.minLength(1))),
  TESSERA_AUDIT_ANCHOR_BUCKET: z.optional(z.string().check(z.regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name'))),
  TESSERA_EXPORT_PAGE_SIZE: intFromEnv(100, 1, 100),
  TESSERA_EXPORT_SLICE_SECONDS: intFromEnv(120, 0, 840),
  TESSERA_EXPORT_MAX_SLICES: intFromEnv(500, 1, 10_000),
  TESSERA_EXPORT_PART_BYTES: intFromEnv(8 * 1024 * 1024, 1024, 512 * 1024 * 1024),
  // The SDKs' service-specific and global endpoint variables ("Service-specific endpoints"),
  // for Tessera's own AWS clients (shared/aws/): a local AWS in tests, never set in Lambda.
  AWS_ENDPOINT_URL: z.optional(z.string().check(z.url())),
  AWS_ENDPOINT_URL_S3: z.optional(z.string().check(z.url())),
  AWS_ENDPOINT_URL_KMS: z.optional(z.string().check(z.url())),
  AWS_ENDPOINT_URL_SECRETS_MANAGER: z.optional(z.string().check(z.url())),
  AWS_ENDPOINT_URL_SESV2: z.optional(z.string().check(z.url())),
  AWS_ENDPOINT_URL_SQS: z.optional(z.string().check(z.url())),
  TESSERA_EXPORTS_BUCKET: z.optional(z.string().check(z.regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name'))),
  TESSERA_BOOTSTRAP_TENANT: z._default(z.string().check(z.minLength(1)), 'demo'),
  TESSERA_BOOTSTRAP_ADMIN_EMAIL: z.optional(z.string().check(z.email())),
  TESSERA_BOOTSTRAP_ADMIN_PASSWORD: z.optional(z.string().check(z.minLength(1))),
  TESSERA_RATE_LOGIN_ACCOUNT_FAILURES: boundedIntFromEnv('TESSERA_RATE_LOGIN_ACCOUNT_FAILURES'),
  TESSERA_RATE_LOGIN_ACCOUNT_IP_FAILURES: boundedIntFromEnv('TESSERA_RATE_LOGIN_ACCOUNT_IP_FAILURES'),
  TESSERA_RATE_AUTH_IP_REQUESTS: boundedIntFromEnv('TESSERA_RATE_AUTH_IP_REQUESTS'),
  TESSERA_RATE_WINDOW_SECONDS: boundedIntFromEnv('TESSERA_RATE_WINDOW_SECONDS'),
  TESSERA_TRUST_FORWARDED_FOR: z._default(z.enum(['0', '1']), '0'),
  TESSERA_ORIGIN_VERIFY_SECRET: z.optional(z.string().check(z.minLength(32))),
  TESSERA_CONNECTOR_TEST_TIMEOUT_MS: intFromEnv(10_000, 100, 60_000),
  TESSERA_RUN_QUEUE_URL: z.optional(z.string().check(z.url())),
  TESSERA_RUN_STEP_SECONDS: intFromEnv(120, 1, 840),
  TESSERA_RUN_PAGES_PER_STEP: intFromEnv(0, 0, 1_000_000),
  TESSERA_RUN_MAX_STEP_OBSERVATIONS: intFromEnv(10_000, 10, 1_000_000),
  TESSERA_RUN_CONCURRENCY: intFromEnv(4, 1, 32),
  TESSERA_RUN_STALL_SECONDS: intFromEnv(900, 1, 86_400),
  TESSERA_RUN_PROGRESS_SECONDS: intFromEnv(2, 0, 60),
  TESSERA_SCHEDULER_INTERVAL_SECONDS: intFromEnv(30, 1, 3_600),
  TESSERA_DNS_RESOLVER: z.optional(z.string().check(z.regex(/^(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-fA-F:.]+\]):\d{1,5}$/, 'must be host:port with an IP address ([v6]:port for IPv6)'))),
  TESSERA_DNS_TIMEOUT_MS: intFromEnv(3_000, 100, 30_000),
  TESSERA_DOMAIN_RECHECK_SECONDS: intFromEnv(86_400, 0, 31_536_000),
  TESSERA_CONNECTOR_ENDPOINTS: z.pipe(
    z._default(z.string(), '{}'),
    z.transform((text, ctx) => {
      const parsed = parseConnectorEndpoints(text);
      if (typeof parsed !== 'string') return parsed;
      ctx.issues.push({ code: 'custom', message: parsed, input: text });
      return z.NEVER;
    }),
  ),
});

export interface ConnectorEndpoints {
  /** Provider → base URL (`okta`, `sts`, `iam`, `login`, `graph`, `arm`), for every connection. */
  endpoints: Record<string, string>;
  /** Okta org host (`acme.okta.com`) → base URL, ahead of `endpoints.okta`; other orgs keep their own URL. */
  oktaOrgs: Record<string, string>;
}

const ENDPOINTS_SHAPE = 'must be a JSON object of base URLs by provider (okta may also be an object of org host to base URL)';
const ORG_HOST = /^[a-z0-9][a-z0-9-]{0,62}(\.[a-z0-9][a-z0-9-]{0,62})+$/;

const isBaseUrl = (value: unknown): value is string => {
  if (typeof value !== 'string') return false;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/** `TESSERA_CONNECTOR_ENDPOINTS` (API.md, Local mode), or the reason it is refused. */
function parseConnectorEndpoints(text: string): ConnectorEndpoints | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return ENDPOINTS_SHAPE;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return ENDPOINTS_SHAPE;
  const result: ConnectorEndpoints = { endpoints: {}, oktaOrgs: {} };
  for (const [provider, url] of Object.entries(value as Record<string, unknown>)) {
    if (isBaseUrl(url)) {
      result.endpoints[provider] = url;
    } else if (provider === 'okta' && url && typeof url === 'object' && !Array.isArray(url)) {
      for (const [host, orgUrl] of Object.entries(url as Record<string, unknown>)) {
        if (!ORG_HOST.test(host)) return `okta: "${host}" is not an org host name such as acme.okta.com`;
        if (!isBaseUrl(orgUrl)) return `okta: the base URL of ${host} must be an http(s) URL`;
        result.oktaOrgs[host] = orgUrl;
      }
    } else {
      return `${provider}: ${ENDPOINTS_SHAPE}`;
    }
  }
  return result;
}

export interface RateLimitConfig {
  /** Failed credential checks per account within one window. */
  accountFailures: number;
  /** Failed credential checks per (account, source IP) within one window. */
  accountIpFailures: number;
  /** All requests to /v1/auth/* and /v1/mfa/* per source IP within one window. */
  ipRequests: number;
  windowSeconds: number;
}

export interface RunConfig {
  /** AWS: the SQS queue that carries run steps. Local: the local host's in-process queue. */
  queueUrl: string | undefined;
  /** How long one step may read before it checkpoints (the worker's timeout leaves room to commit). */
  stepSeconds: number;
  /** Pages one step reads per track before it checkpoints; 0 = as many as the time allows. */
  pagesPerStep: number;
  /**
   * Entities and relationships one step sees before it checkpoints, whatever time is left: what a
   * step holds until then (digests, changes) is what bounds the worker's memory.
   */
  maxStepObservations: number;
  /** Provider requests in flight at once in one run. */
  concurrency: number;
  /** A run that has shown no progress this long after it was due to is resumed (or failed). */
  stallSeconds: number;
  /** How often a reading step refreshes the progress the API shows (0: after every page). */
  progressSeconds: number;
  /** Local host: how often the scheduler looks for due connections and stalled runs. */
  schedulerIntervalSeconds: number;
}

export interface EmailDomainConfig {
  /** The DNS server verification asks (`host:port`); unset: the system's resolvers. */
  dnsResolver: string | undefined;
  /** How long one TXT lookup may take before it counts as a DNS outage. */
  dnsTimeoutMs: number;
  /** A DNS-verified domain whose last check is older than this is checked again when routing uses it. */
  recheckSeconds: number;
}

export type SecretSource = { kind: 'secrets-manager'; secretArn: string } | { kind: 'file'; path: string };

export interface Config {
  stage: 'local' | 'aws';
  tableName: string;
  dynamodbEndpoint: string | undefined;
  region: string;
  dataDir: string;
  outboxDir: string;
  /** How email leaves: SES in AWS, `.eml` files in `outboxDir` locally. */
  email: { transport: 'ses' | 'outbox'; from: string; sesConfigurationSet: string | undefined };
  /** `POST /v1/auth/password/forgot` answers no sooner than this, account or not (timing). */
  passwordResetResponseFloorMs: number;
  port: number;
  publicUrl: string;
  jwt: { issuer: string; audience: string; accessTokenTtlSeconds: number };
  refreshTokenTtlDays: number;
  /** A session ends this long after its sign-in, however often it refreshes. */
  sessionMaxSeconds: number;
  /**
   * AWS: the Secrets Manager secret holding the seed of the JWT signing key (AWSCURRENT signs).
   * Local: a key file. Only token issuers read it; everyone else verifies with the published
   * public keys (`shared/identity/published-signing-keys.ts`).
   */
  signingKeys: SecretSource;
  /** AWS: the secret whose current and previous versions give the list cursor keys. Local: a key file. */
  cursorKeys: SecretSource;
  /**
   * How long a warm function keeps what it read of the keys (the issuer's private key, the
   * published public keys, the cursor keys) before reading them again: how soon a rotation
   * reaches every function, and part of how long a retired signing key keeps verifying.
   */
  keyCacheSeconds: number;
  /** AWS: the KMS key for envelope encryption. Local: a raw AES key file. */
  envelopeKey: { kind: 'kms'; keyArn: string } | { kind: 'file'; path: string };
  /**
   * Where each audit append records the chain's head (shared/audit/audit-anchor.ts). AWS: the
   * Object Lock bucket. Local: an append-only file per table under the data directory.
   */
  auditAnchor: { kind: 's3'; bucket: string } | { kind: 'file'; path: string };
  /**
   * Where export files go (shared/exports/export-files.ts). AWS: the exports bucket (encrypted,
   * expiring after a day), read through short-lived signed URLs. Local: a directory under the data
   * directory, served by the local host through `GET /v1/exports/{id}/content`.
   */
  exportFiles: { kind: 's3'; bucket: string } | { kind: 'file'; dir: string };
  /** Endpoints other than AWS's, per service (a local AWS, the tests' servers); S3's is addressed path-style. */
  awsEndpoints: Record<'s3' | 'kms' | 'secretsManager' | 'sesv2' | 'sqs', string | undefined>;
  /** Items an export reads per page of its source (the lists' largest page; tests make it small to cross pages). */
  exportPageSize: number;
  /**
   * How long one export job writes before it checkpoints and queues the rest (export-job.ts);
   * 0: each job stops at its first durable checkpoint (tests: an export of many jobs).
   */
  exportSliceSeconds: number;
  /** The jobs an export may take before it fails as too large. */
  exportMaxSlices: number;
  /** The size of an export's S3 parts (S3's minimum is 5 MiB; less only against a local S3 whose minimum is lowered). */
  exportPartBytes: number;
  bootstrap: { tenant: string; adminEmail: string | undefined; adminPassword: string | undefined };
  rateLimits: RateLimitConfig;
  /** Local host only: take the client address from X-Forwarded-For (tests simulate many clients). */
  trustForwardedFor: boolean;
  /**
   * AWS behind CloudFront: the value CloudFront sends in `x-tessera-origin-verify`; only a
   * request carrying it has its `CloudFront-Viewer-Address` believed (`shared/http/client-address.ts`).
   */
  originVerifySecret: string | undefined;
  runs: RunConfig;
  emailDomains: EmailDomainConfig;
  connectors: {
    /** How long the test operation waits for a provider. */
    testTimeoutMs: number;
  } & ConnectorEndpoints;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // zod/mini loads no locale: the operator reads zod's English words, not "Invalid input".
  const parsed = EnvSchema.safeParse(env, { error: en().localeError });
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${details}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.TESSERA_DATA_DIR);
  const publicUrl = (e.TESSERA_PUBLIC_URL ?? `http://127.0.0.1:${e.PORT}`).replace(/\/$/, '');
  if (e.TESSERA_STAGE === 'aws' && Object.keys(e.TESSERA_CONNECTOR_ENDPOINTS.endpoints).length + Object.keys(e.TESSERA_CONNECTOR_ENDPOINTS.oktaOrgs).length > 0) {
    // An override would send every tenant's provider credentials to one host.
    throw new Error('Invalid configuration: TESSERA_CONNECTOR_ENDPOINTS is for local mode and tests only');
  }
  if (e.TESSERA_STAGE === 'aws' && (!e.TESSERA_SIGNING_KEY_SECRET_ARN || !e.TESSERA_CURSOR_KEY_SECRET_ARN || !e.TESSERA_KMS_KEY_ARN || !e.TESSERA_AUDIT_ANCHOR_BUCKET)) {
    throw new Error('Invalid configuration: TESSERA_SIGNING_KEY_SECRET_ARN, TESSERA_CURSOR_KEY_SECRET_ARN, TESSERA_KMS_KEY_ARN and TESSERA_AUDIT_ANCHOR_BUCKET are required in the aws stage');
  }
  if (e.TESSERA_EXPORT_PART_BYTES < 5 * 1024 * 1024 && !(e.AWS_ENDPOINT_URL_S3 ?? e.AWS_ENDPOINT_URL)) {
    // S3 refuses to complete an upload with a part but the last under 5 MiB.
    throw new Error('Invalid configuration: TESSERA_EXPORT_PART_BYTES under 5 MiB is only for a local S3 (AWS_ENDPOINT_URL_S3) whose minimum part size is lowered');
  }
  return {
    stage: e.TESSERA_STAGE,
    tableName: e.TESSERA_TABLE,
    dynamodbEndpoint: e.DYNAMODB_ENDPOINT,
    region: e.AWS_REGION,
    dataDir,
    outboxDir: path.resolve(e.TESSERA_OUTBOX_DIR ?? path.join(dataDir, 'outbox')),
    email: { transport: e.TESSERA_STAGE === 'aws' ? 'ses' : 'outbox', from: e.TESSERA_EMAIL_FROM, sesConfigurationSet: e.TESSERA_SES_CONFIGURATION_SET },
    passwordResetResponseFloorMs: e.TESSERA_PASSWORD_RESET_RESPONSE_FLOOR_MS,
    port: e.PORT,
    publicUrl,
    jwt: { issuer: publicUrl, audience: e.TESSERA_JWT_AUDIENCE, accessTokenTtlSeconds: e.TESSERA_ACCESS_TOKEN_TTL_SECONDS },
    refreshTokenTtlDays: e.TESSERA_REFRESH_TOKEN_TTL_DAYS,
    sessionMaxSeconds: e.TESSERA_SESSION_MAX_SECONDS,
    signingKeys: e.TESSERA_SIGNING_KEY_SECRET_ARN
      ? { kind: 'secrets-manager', secretArn: e.TESSERA_SIGNING_KEY_SECRET_ARN }
      : { kind: 'file', path: path.join(dataDir, 'keys', 'jwt-signing-keys.json') },
    cursorKeys: e.TESSERA_CURSOR_KEY_SECRET_ARN
      ? { kind: 'secrets-manager', secretArn: e.TESSERA_CURSOR_KEY_SECRET_ARN }
      : { kind: 'file', path: path.join(dataDir, 'keys', 'cursor-keys.json') },
    keyCacheSeconds: e.TESSERA_KEY_CACHE_SECONDS,
    envelopeKey: e.TESSERA_KMS_KEY_ARN
      ? { kind: 'kms', keyArn: e.TESSERA_KMS_KEY_ARN }
      : { kind: 'file', path: path.join(dataDir, 'keys', 'envelope-key.json') },
    auditAnchor: e.TESSERA_AUDIT_ANCHOR_BUCKET
      ? { kind: 's3', bucket: e.TESSERA_AUDIT_ANCHOR_BUCKET }
      : { kind: 'file', path: path.join(dataDir, 'audit-anchors', `${e.TESSERA_TABLE}.jsonl`) },
    exportPageSize: e.TESSERA_EXPORT_PAGE_SIZE,
    exportSliceSeconds: e.TESSERA_EXPORT_SLICE_SECONDS,
    exportMaxSlices: e.TESSERA_EXPORT_MAX_SLICES,
    exportPartBytes: e.TESSERA_EXPORT_PART_BYTES,
    awsEndpoints: {
      s3: e.AWS_ENDPOINT_URL_S3 ?? e.AWS_ENDPOINT_URL,
      kms: e.AWS_ENDPOINT_URL_KMS ?? e.AWS_ENDPOINT_URL,
      secretsManager: e.AWS_ENDPOINT_URL_SECRETS_MANAGER ?? e.AWS_ENDPOINT_URL,
      sesv2: e.AWS_ENDPOINT_URL_SESV2 ?? e.AWS_ENDPOINT_URL,
      sqs: e.AWS_ENDPOINT_URL_SQS ?? e.AWS_ENDPOINT_URL,
    },
    exportFiles: e.TESSERA_EXPORTS_BUCKET ? { kind: 's3', bucket: e.TESSERA_EXPORTS_BUCKET } : { kind: 'file', dir: path.join(dataDir, 'exports') },
    bootstrap: {
      tenant: e.TESSERA_BOOTSTRAP_TENANT,
      adminEmail: e.TESSERA_BOOTSTRAP_ADMIN_EMAIL,
      adminPassword: e.TESSERA_BOOTSTRAP_ADMIN_PASSWORD,
    },
    rateLimits: {
      accountFailures: e.TESSERA_RATE_LOGIN_ACCOUNT_FAILURES,
      accountIpFailures: e.TESSERA_RATE_LOGIN_ACCOUNT_IP_FAILURES,
      ipRequests: e.TESSERA_RATE_AUTH_IP_REQUESTS,
      windowSeconds: e.TESSERA_RATE_WINDOW_SECONDS,
    },
    trustForwardedFor: e.TESSERA_TRUST_FORWARDED_FOR === '1',
    originVerifySecret: e.TESSERA_ORIGIN_VERIFY_SECRET,
    runs: {
      queueUrl: e.TESSERA_RUN_QUEUE_URL,
      stepSeconds: e.TESSERA_RUN_STEP_SECONDS,
      pagesPerStep: e.TESSERA_RUN_PAGES_PER_STEP,
      maxStepObservations: e.TESSERA_RUN_MAX_STEP_OBSERVATIONS,
      concurrency: e.TESSERA_RUN_CONCURRENCY,
      stallSeconds: e.TESSERA_RUN_STALL_SECONDS,
      progressSeconds: e.TESSERA_RUN_PROGRESS_SECONDS,
      schedulerIntervalSeconds: e.TESSERA_SCHEDULER_INTERVAL_SECONDS,
    },
    emailDomains: { dnsResolver: e.TESSERA_DNS_RESOLVER, dnsTimeoutMs: e.TESSERA_DNS_TIMEOUT_MS, recheckSeconds: e.TESSERA_DOMAIN_RECHECK_SECONDS },
    connectors: { testTimeoutMs: e.TESSERA_CONNECTOR_TEST_TIMEOUT_MS, ...e.TESSERA_CONNECTOR_ENDPOINTS },
  };
}
