/**
 * The settings of one tenant environment, each environment a typed entry of CDK context
 * (`cdk.json` → `context.environments["acme-prod"]`), chosen with `-c env=acme-prod`. One zod
 * schema is the settings type and its validation, so a bad or missing value stops the synth
 * with a message naming the environment and the field.
 *
 * Environments of tier `development` may also take the older loose overrides from the command
 * line (`-c throttleRate=100`, …); staging and production environments take their settings
 * from cdk.json only, where a review sees them.
 */
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';
import * as z from 'zod';
import { deployableSettingBounds } from '../shared/config';
import { ROUTE_TIMEOUT_SECONDS } from './function-timeouts';

const ENV_PATTERN = /^[a-z][a-z0-9-]{0,30}[a-z0-9]$|^[a-z]$/;
/** What `emailFrom` defaults to in development: SES refuses it, hence required elsewhere. */
const PLACEHOLDER_SENDER = 'Tessera <no-reply@example.com>';

const boundedInt = (name: keyof typeof deployableSettingBounds) => {
  const { default: fallback, min, max } = deployableSettingBounds[name];
  return z.number().int().min(min).max(max).default(fallback);
};
const positiveInt = (fallback: number) => z.number().int().positive().default(fallback);

const retentionDays = Object.values(RetentionDays).filter((v): v is RetentionDays => typeof v === 'number');

const emailFrom = z
  .string()
  .trim()
  .transform((text, ctx) => {
    const match = /^(?:[^<>\r\n]*<([^\s<>@]+@([a-z0-9.-]+\.[a-z]{2,63}))>|([^\s<>@]+@([a-z0-9.-]+\.[a-z]{2,63})))$/i.exec(text);
    if (!match) {
      ctx.addIssue({ code: 'custom', message: `must be an email address, optionally as "Name <address>", got ${JSON.stringify(text)}` });
      return z.NEVER;
    }
    const address = (match[1] ?? match[3])!.toLowerCase();
    return { header: text, address, domain: address.slice(address.indexOf('@') + 1) };
  });

const hostname = z.string().regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'must be a lower-case DNS name');
const ACM_CERTIFICATE_ARN = /^arn:aws[a-z-]*:acm:([a-z0-9-]+):\d{12}:certificate\/[0-9a-f-]{36}$/;
/** A domain name and its ACM certificate, imported by ARN (nothing is looked up at synth). */
const customDomain = (certificateRegion?: string) =>
  z
    .object({
      name: hostname,
      certificateArn: z
        .string()
        .regex(ACM_CERTIFICATE_ARN, 'must be an ACM certificate ARN')
        .refine((arn) => certificateRegion === undefined || ACM_CERTIFICATE_ARN.exec(arn)?.[1] === certificateRegion, `must be a certificate in ${certificateRegion ?? ''} (CloudFront takes certificates from there only)`),
    })
    .strict();
export type CustomDomain = z.output<ReturnType<typeof customDomain>>;

/** The CodeDeploy predefined configs for Lambda this project offers (infra/deployment-safety.ts). */
export const DEPLOYMENT_CONFIG_NAMES = ['ALL_AT_ONCE', 'CANARY_10PERCENT_5MINUTES', 'CANARY_10PERCENT_10MINUTES', 'LINEAR_10PERCENT_EVERY_1MINUTE'] as const;
export type DeploymentConfigName = (typeof DEPLOYMENT_CONFIG_NAMES)[number];
const throttleOf = z.object({ rateLimit: z.number().int().positive(), burstLimit: z.number().int().positive() }).strict();
/** WAF takes 10 to 2,000,000,000 requests per evaluation window. */
const wafRateLimit = (fallback: number) => z.number().int().min(10).max(2_000_000_000).default(fallback);

/** One environment as cdk.json holds it; every field but the tier has a default. */
export const environmentSchema = z
  .object({
    /**
     * `development`: a developer's or CI's stack, defaults allowed. `staging` and `production`:
     * account, region and a real sender are required; `production` also needs alarm subscribers
     * (and gets the protections meant for tenants' data).
     */
    tier: z.enum(['development', 'staging', 'production']).default('development'),
    /** The AWS account and region the stack deploys to: the stack's `env`, not whoever runs cdk. */
    account: z.string().regex(/^\d{12}$/, 'must be a 12-digit AWS account id').optional(),
    region: z.string().regex(/^[a-z]{2}(-gov|-iso[a-z]*)?-[a-z]+-\d$/, 'must be an AWS region code such as eu-west-1').optional(),
    /** The public base URL (issuer of tokens, base of SSO redirect URIs); default `https://<domain.name>`, else the API's own endpoint. */
    publicUrl: z
      .string()
      .regex(/^https:\/\/[^/\s]+(\/[^\s]*)?$/, 'must be an https URL')
      .transform((url) => url.replace(/\/$/, ''))
      .optional(),
    /** The domain users reach (CloudFront's alternate name) and its certificate, which must be in us-east-1. */
    domain: customDomain('us-east-1').optional(),
    /**
     * A custom domain of the HTTP API, in the stack's region with a certificate there: CloudFront's
     * origin. With one, the execute-api endpoint is turned off, so nothing goes around the edge.
     */
    apiDomain: customDomain().optional(),
    /** The sender of Tessera's emails: an address or domain verified in SES in the stack's region. */
    emailFrom: emailFrom.optional(),
    /** An SES configuration set for delivery events and suppression, when you have one. */
    sesConfigurationSet: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be letters, digits, _ and -').optional(),
    /** Stage throttling of the HTTP API: steady-state requests per second and burst. */
    throttle: z.object({ rateLimit: positiveInt(50), burstLimit: positiveInt(100) }).strict().prefault({}),
    /** The application's own limits (shared/config.ts `RateLimitConfig`), passed to every function. */
    rateLimits: z
      .object({
        loginAccountFailures: boundedInt('TESSERA_RATE_LOGIN_ACCOUNT_FAILURES'),
        loginAccountIpFailures: boundedInt('TESSERA_RATE_LOGIN_ACCOUNT_IP_FAILURES'),
        authIpRequests: boundedInt('TESSERA_RATE_AUTH_IP_REQUESTS'),
        windowSeconds: boundedInt('TESSERA_RATE_WINDOW_SECONDS'),
      })
      .strict()
      .prefault({}),
    /** Lifetimes of access tokens, refresh tokens and sessions (a sign-in however often it refreshes). */
    tokens: z
      .object({
        accessTokenTtlSeconds: boundedInt('TESSERA_ACCESS_TOKEN_TTL_SECONDS'),
        refreshTokenTtlDays: boundedInt('TESSERA_REFRESH_TOKEN_TTL_DAYS'),
        sessionMaxSeconds: boundedInt('TESSERA_SESSION_MAX_SECONDS'),
      })
      .strict()
      .prefault({}),
    /** Memory per class of function, in MB (Lambda CPU grows with memory). */
    memory: z
      .object({
        defaultMb: z.number().int().min(128).max(10_240).default(256),
        // Argon2id (m = 19 MiB) is CPU-bound.
        passwordHashingMb: z.number().int().min(128).max(10_240).default(1024),
        runWorkerMb: z.number().int().min(128).max(10_240).default(512),
      })
      .strict()
      .prefault({}),
    /**
     * Timeouts of the API routes, in seconds; under API Gateway's 30 s integration limit. The
     * connection test and the run worker keep their budgeted timeouts (infra/function-timeouts.ts).
     */
    timeouts: z
      .object({
        routeSeconds: z.number().int().min(3).max(29).default(ROUTE_TIMEOUT_SECONDS),
        passwordHashingSeconds: z.number().int().min(3).max(29).default(ROUTE_TIMEOUT_SECONDS),
      })
      .strict()
      .prefault({}),
    /** What the alarms watch for and who hears of it (infra/observability.ts). */
    alarms: z
      .object({
        /** Addresses subscribed by email to the alarm topic (each confirms by email). */
        emails: z.array(z.email()).default([]),
        /** Share of API requests answered 5xx over 5 minutes, in percent. */
        api5xxPercent: z.number().positive().max(100).default(1),
        /** p99 of the API's latency over 5 minutes, in milliseconds. */
        apiP99LatencyMs: z.number().int().positive().default(2_000),
        /** Function errors (and, separately, throttles) within 5 minutes, across a group of functions. */
        lambdaErrors: z.number().int().positive().default(1),
        lambdaThrottles: z.number().int().positive().default(1),
        /** The longest invocation within 5 minutes, in percent of its function's timeout. */
        durationPercentOfTimeout: z.number().positive().max(100).default(80),
        /** Throttled reads and writes of the table and its indexes within 5 minutes. */
        dynamodbThrottles: z.number().int().positive().default(1),
        /** Failed share of sign-ins (and of MFA answers) over 5 minutes, in percent, once there are `minAttempts`. */
        loginFailurePercent: z.number().positive().max(100).default(50),
        mfaFailurePercent: z.number().positive().max(100).default(50),
        minAttempts: z.number().int().positive().default(20),
        /** Emails SES refused within 5 minutes. */
        emailSendFailures: z.number().int().positive().default(1),
        /** Discovery runs that ended `failed` within an hour. */
        runFailures: z.number().int().positive().default(3),
      })
      .strict()
      .prefault({}),
    /** WAF rate-based rules: requests per client IP within five minutes to `/v1/auth/*` and to `/v1/mfa/*`. */
    edgeRateLimits: z.object({ auth: wafRateLimit(300), mfa: wafRateLimit(100) }).strict().prefault({}),
    /**
     * Stage throttles of single routes, by route key, on top of the stage-wide throttle: the
     * Argon2id and email routes get a steady rate of their own below the stage's, so a flood of
     * them is refused by API Gateway before a function is billed, and the other routes keep the
     * stage's capacity.
     */
    routeThrottles: z
      // Keys are checked below: a record's key issue in zod loses its message.
      .record(z.string(), throttleOf)
      .default({
        'POST /v1/auth/login': { rateLimit: 20, burstLimit: 40 },
        'POST /v1/auth/password/forgot': { rateLimit: 5, burstLimit: 10 },
        'POST /v1/auth/password/reset': { rateLimit: 5, burstLimit: 10 },
        'POST /v1/mfa/challenge': { rateLimit: 20, burstLimit: 40 },
        // What no route takes (the $default route's function): scanners, not clients.
        $default: { rateLimit: 10, burstLimit: 20 },
      }),
    /** Reserved concurrency of each password-hashing (Argon2id) function. */
    passwordHashingConcurrency: z.number().int().min(1).max(1000).default(10),
    /** The CodeDeploy config every function's `live` alias is shifted with; default a canary in production, all at once elsewhere. */
    deploymentConfig: z.enum(DEPLOYMENT_CONFIG_NAMES).optional(),
    /** How long the AWS Backup plan keeps each kind of recovery point, in days. */
    backupRetentionDays: z
      .object({ daily: positiveInt(35), weekly: positiveInt(91), monthly: positiveInt(365) })
      .strict()
      .prefault({})
      .refine((days) => days.daily <= days.weekly && days.weekly <= days.monthly, 'must keep daily <= weekly <= monthly'),
    /**
     * How long the audit anchor bucket keeps each recorded chain head under Object Lock in
     * compliance mode, in days: nobody can delete one sooner, so the bucket cannot be emptied
     * before then either (infra/audit-anchor-bucket.ts).
     */
    auditAnchorRetentionDays: z.number().int().min(1).max(36_500).default(400),
    /** Retention of the functions' and the API's log groups (the groups themselves are retained). */
    logRetentionDays: z
      .number()
      .refine((days) => retentionDays.some((d) => Number(d) === days), `must be one of ${retentionDays.join(', ')}`)
      .transform((days) => days as RetentionDays)
      .default(RetentionDays.THREE_MONTHS),
    /** X-Ray active tracing and the Powertools Tracer in the bundles. */
    tracing: z.boolean().default(false),
  })
  .strict()
  .superRefine((entry, ctx) => {
    if (entry.domain && entry.publicUrl && new URL(entry.publicUrl).hostname !== entry.domain.name) {
      ctx.addIssue({ code: 'custom', path: ['publicUrl'], message: `must be on the custom domain ${entry.domain.name}` });
    }
    for (const routeKey of Object.keys(entry.routeThrottles)) {
      if (!/^((GET|POST|PUT|PATCH|DELETE) \/\S+|\$default)$/.test(routeKey)) ctx.addIssue({ code: 'custom', path: ['routeThrottles', routeKey], message: 'must be a route key such as "POST /v1/auth/login", or "$default"' });
    }
    const apiCertificateRegion = entry.apiDomain && ACM_CERTIFICATE_ARN.exec(entry.apiDomain.certificateArn)?.[1];
    if (apiCertificateRegion && entry.region && apiCertificateRegion !== entry.region) {
      ctx.addIssue({ code: 'custom', path: ['apiDomain', 'certificateArn'], message: `must be a certificate in the stack's region ${entry.region} (API Gateway takes a regional certificate from there only)` });
    }
    if (entry.tier === 'development') return;
    const required = (field: string, why: string) => ctx.addIssue({ code: 'custom', path: [field], message: `is required for a ${entry.tier} environment: ${why}` });
    if (!entry.account) required('account', 'the stack deploys there, whoever runs cdk');
    if (!entry.region) required('region', 'the stack deploys there, whoever runs cdk');
    if (!entry.emailFrom) required('emailFrom', `the default ${PLACEHOLDER_SENDER} cannot be sent from SES; give an address whose domain is verified in SES`);
    else if (entry.emailFrom.domain === 'example.com') ctx.addIssue({ code: 'custom', path: ['emailFrom'], message: 'cannot be an example.com address, which SES will not send from' });
    if (entry.tier === 'production' && entry.alarms.emails.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['alarms', 'emails'], message: 'needs at least one subscriber in production: alarms nobody receives protect nothing' });
    }
  });

export type EnvironmentSettings = z.output<typeof environmentSchema>;

export type StackSettings = Omit<EnvironmentSettings, 'emailFrom' | 'logRetentionDays' | 'deploymentConfig'> & {
  /** The tenant environment, e.g. `acme-prod`: names the stack (`Tessera-<env>`), tags and names resources. */
  env: string;
  /** Tier `production`: termination protection, canary deploys by default. */
  production: boolean;
  deploymentConfig: DeploymentConfigName;
  emailFrom: { header: string; address: string; domain: string };
  logRetention: RetentionDays;
};

function toStackSettings(env: string, entry: EnvironmentSettings): StackSettings {
  const { emailFrom: sender, logRetentionDays, publicUrl, deploymentConfig, ...rest } = entry;
  const production = entry.tier === 'production';
  return {
    ...rest,
    env,
    production,
    deploymentConfig: deploymentConfig ?? (production ? 'CANARY_10PERCENT_5MINUTES' : 'ALL_AT_ONCE'),
    publicUrl: publicUrl ?? (entry.domain ? `https://${entry.domain.name}` : undefined),
    emailFrom: sender ?? emailFrom.parse(PLACEHOLDER_SENDER),
    logRetention: logRetentionDays,
  };
}

function describeIssues(where: string, error: z.ZodError): string {
  return error.issues.map((issue) => `${[where, ...issue.path.map(String)].join('.')} ${issue.message}`).join('; ');
}

/** The settings of a development environment with every default: what tests start from. */
export const defaultStackSettings: StackSettings = toStackSettings('dev', environmentSchema.parse({}));

export function stackName(env: string): string {
  return `Tessera-${env}`;
}

/**
 * The command-line overrides a development environment may take (strings, as the CLI passes
 * them), each to its place in the environment entry.
 */
const commandLineOverrides: Record<string, (entry: Record<string, unknown>, value: string) => void> = {
  publicUrl: (e, v) => (e.publicUrl = v === '' ? undefined : v),
  throttleRate: (e, v) => (e.throttle = { ...(e.throttle as object), rateLimit: Number(v) }),
  throttleBurst: (e, v) => (e.throttle = { ...(e.throttle as object), burstLimit: Number(v) }),
  logRetentionDays: (e, v) => (e.logRetentionDays = Number(v)),
  tracing: (e, v) => (e.tracing = v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v),
  emailFrom: (e, v) => (e.emailFrom = v),
  sesConfigurationSet: (e, v) => (e.sesConfigurationSet = v === '' ? undefined : v),
};

/**
 * The environment named by context `env` (default `dev`), from context `environments`, with the
 * command-line overrides of a development environment. `dev` needs no entry (all defaults); any
 * other name must have one, so a mistyped name fails instead of deploying a default stack.
 */
export function readStackSettings(node: Node): StackSettings {
  const env: unknown = node.tryGetContext('env') ?? 'dev';
  if (typeof env !== 'string' || !ENV_PATTERN.test(env)) {
    throw new Error(`Context value env must be lower-case letters, digits and dashes (at most 32), got ${JSON.stringify(env)}`);
  }
  const environments: unknown = node.tryGetContext('environments') ?? {};
  if (typeof environments !== 'object' || environments === null || Array.isArray(environments)) {
    throw new Error('Context value environments must be an object of environment name → settings (cdk.json)');
  }
  const defined = environments as Record<string, unknown>;
  const raw = Object.hasOwn(defined, env) ? defined[env] : env === 'dev' ? {} : undefined;
  if (raw === undefined) {
    throw new Error(`Environment ${JSON.stringify(env)} is not defined in cdk.json context.environments (defined: ${Object.keys(defined).join(', ') || 'none'})`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error(`environments.${env} must be an object of settings`);
  const entry: Record<string, unknown> = { ...(raw as Record<string, unknown>) };

  const given = Object.keys(commandLineOverrides).filter((key) => node.tryGetContext(key) !== undefined);
  if (given.length > 0) {
    const tier: unknown = entry.tier ?? 'development';
    if (tier !== 'development') {
      throw new Error(`Environment ${env} is a ${String(tier)} environment: set ${given.join(', ')} in its cdk.json entry, not with -c on the command line`);
    }
    for (const key of given) commandLineOverrides[key]!(entry, String(node.tryGetContext(key)));
  }

  const parsed = environmentSchema.safeParse(entry);
  if (!parsed.success) throw new Error(`Invalid settings: ${describeIssues(`environments.${env}`, parsed.error)}`);
  return toStackSettings(env, parsed.data);
}

/**
 * Where the stack deploys: the environment's own account and region (required outside
 * development); a development environment without them goes where the CLI's credentials point.
 */
export function stackEnvironment(settings: StackSettings, cli: Record<string, string | undefined> = process.env): { account: string | undefined; region: string | undefined } {
  return { account: settings.account ?? cli.CDK_DEFAULT_ACCOUNT, region: settings.region ?? cli.CDK_DEFAULT_REGION };
}

/** The environment variables that carry an environment's tunable settings to every function. */
export function tunableEnvironment(settings: StackSettings): Record<string, string> {
  return {
    TESSERA_RATE_LOGIN_ACCOUNT_FAILURES: String(settings.rateLimits.loginAccountFailures),
    TESSERA_RATE_LOGIN_ACCOUNT_IP_FAILURES: String(settings.rateLimits.loginAccountIpFailures),
    TESSERA_RATE_AUTH_IP_REQUESTS: String(settings.rateLimits.authIpRequests),
    TESSERA_RATE_WINDOW_SECONDS: String(settings.rateLimits.windowSeconds),
    TESSERA_ACCESS_TOKEN_TTL_SECONDS: String(settings.tokens.accessTokenTtlSeconds),
    TESSERA_REFRESH_TOKEN_TTL_DAYS: String(settings.tokens.refreshTokenTtlDays),
    TESSERA_SESSION_MAX_SECONDS: String(settings.tokens.sessionMaxSeconds),
  };
}
