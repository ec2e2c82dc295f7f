/**
 * The knobs of one tenant environment, read from CDK context (`cdk deploy -c env=acme-prod
 * -c throttleRate=100`). Context values given on the command line arrive as strings, so every
 * value is parsed and checked here; a bad value stops the synth with a clear message.
 */
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';

export interface StackSettings {
  /** The tenant environment, e.g. `acme-prod`: names the stack (`Tessera-<env>`), tags and names resources. */
  env: string;
  /** The public base URL (custom domain); default: the HTTP API's own endpoint. */
  publicUrl: string | undefined;
  /** Stage throttling: steady-state requests per second and burst. */
  throttle: { rateLimit: number; burstLimit: number };
  /** Retention of the functions' and the API's log groups. */
  logRetention: RetentionDays;
  /** X-Ray active tracing (adds an `xray:Put*` statement on `*`, which X-Ray cannot scope). */
  tracing: boolean;
  /**
   * The sender of Tessera's emails (password reset): an address, optionally with a display
   * name, whose address or domain is a verified SES identity in the stack's region.
   */
  emailFrom: { header: string; address: string; domain: string };
  /** An SES configuration set for delivery events and suppression, when you have one. */
  sesConfigurationSet: string | undefined;

  // Edge protection, safe deploys and data protection (issue 13). Optional: when absent, the
  // value of `hardeningDefaults(env)` applies (`hardeningOf` fills them in).
  /** A production environment: termination protection on, canary deploys by default. Default: env ends with `-prod` or is `prod`. */
  production?: boolean;
  /** The CodeDeploy config every function's `live` alias is shifted with (`LambdaDeploymentConfig` names). */
  deploymentConfig?: DeploymentConfigName;
  /** How long the AWS Backup plan keeps each kind of recovery point, in days. */
  backupRetentionDays?: { daily: number; weekly: number; monthly: number };
  /** WAF rate-based rules: requests per client IP within five minutes to `/v1/auth/*` and to `/v1/mfa/*`. */
  edgeRateLimits?: { auth: number; mfa: number };
  /** Stage throttles for single routes, by route key (`POST /v1/auth/login`); the stage-wide throttle applies to the others. */
  routeThrottles?: Readonly<Record<string, { rateLimit: number; burstLimit: number }>>;
  /** Reserved concurrency of each password-hashing (Argon2id, 1024 MB) function. */
  passwordHashingConcurrency?: number;
  /** An API Gateway custom domain (the CloudFront origin) and its regional ACM certificate: turns the execute-api endpoint off. */
  apiDomain?: CustomDomain;
  /** The viewer-facing domain on CloudFront and its ACM certificate in us-east-1. */
  edgeDomain?: CustomDomain;
}

export interface CustomDomain {
  name: string;
  certificateArn: string;
}

/** The CodeDeploy predefined configs for Lambda this project offers. */
export const DEPLOYMENT_CONFIG_NAMES = ['ALL_AT_ONCE', 'CANARY_10PERCENT_5MINUTES', 'CANARY_10PERCENT_10MINUTES', 'LINEAR_10PERCENT_EVERY_1MINUTE'] as const;
export type DeploymentConfigName = (typeof DEPLOYMENT_CONFIG_NAMES)[number];

export type HardeningSettings = Required<Pick<StackSettings, 'production' | 'deploymentConfig' | 'backupRetentionDays' | 'edgeRateLimits' | 'routeThrottles' | 'passwordHashingConcurrency'>> &
  Pick<StackSettings, 'apiDomain' | 'edgeDomain'>;

/** An environment named `prod` or `<tenant>-prod` is production unless context says otherwise. */
export function isProductionName(env: string): boolean {
  return /(^|-)prod$/.test(env);
}

/**
 * The defaults of the issue-13 settings. Route throttles: the Argon2id and email routes get a
 * steady rate of their own below the stage's, so a flood of them is refused by API Gateway
 * before a function is billed, and the other routes keep the stage's capacity.
 */
export function hardeningDefaults(production: boolean): HardeningSettings {
  return {
    production,
    deploymentConfig: production ? 'CANARY_10PERCENT_5MINUTES' : 'ALL_AT_ONCE',
    backupRetentionDays: { daily: 35, weekly: 91, monthly: 365 },
    edgeRateLimits: { auth: 300, mfa: 100 },
    routeThrottles: {
      'POST /v1/auth/login': { rateLimit: 20, burstLimit: 40 },
      'POST /v1/auth/password/forgot': { rateLimit: 5, burstLimit: 10 },
      'POST /v1/auth/password/reset': { rateLimit: 5, burstLimit: 10 },
      'POST /v1/mfa/challenge': { rateLimit: 20, burstLimit: 40 },
    },
    passwordHashingConcurrency: 10,
    apiDomain: undefined,
    edgeDomain: undefined,
  };
}

/** The settings with every issue-13 field present (given ones kept, defaults for the rest). */
export function hardeningOf(settings: StackSettings): HardeningSettings {
  const defaults = hardeningDefaults(settings.production ?? isProductionName(settings.env));
  return {
    production: defaults.production,
    deploymentConfig: settings.deploymentConfig ?? defaults.deploymentConfig,
    backupRetentionDays: settings.backupRetentionDays ?? defaults.backupRetentionDays,
    edgeRateLimits: settings.edgeRateLimits ?? defaults.edgeRateLimits,
    routeThrottles: settings.routeThrottles ?? defaults.routeThrottles,
    passwordHashingConcurrency: settings.passwordHashingConcurrency ?? defaults.passwordHashingConcurrency,
    apiDomain: settings.apiDomain,
    edgeDomain: settings.edgeDomain,
  };
}

export const defaultStackSettings: StackSettings = {
  env: 'dev',
  publicUrl: undefined,
  throttle: { rateLimit: 50, burstLimit: 100 },
  logRetention: RetentionDays.THREE_MONTHS,
  tracing: false,
  emailFrom: { header: 'Tessera <no-reply@example.com>', address: 'no-reply@example.com', domain: 'example.com' },
  sesConfigurationSet: undefined,
};

const ENV_PATTERN = /^[a-z][a-z0-9-]{0,30}[a-z0-9]$|^[a-z]$/;

export function stackName(env: string): string {
  return `Tessera-${env}`;
}

function positiveInt(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`Context value ${name} must be a positive integer, got ${JSON.stringify(value)}`);
  return n;
}

function bool(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (value === true || value === 'true' || value === '1') return true;
  if (value === false || value === 'false' || value === '0') return false;
  throw new Error(`Context value ${name} must be true or false, got ${JSON.stringify(value)}`);
}

function retention(value: unknown, fallback: RetentionDays): RetentionDays {
  if (value === undefined) return fallback;
  const days = Number(value);
  const allowed = Object.values(RetentionDays).filter((v): v is RetentionDays => typeof v === 'number');
  const match = allowed.find((d) => Number(d) === days);
  if (match === undefined) throw new Error(`Context value logRetentionDays must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
  return match;
}

function url(value: unknown): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !/^https:\/\/[^/\s]+(\/[^\s]*)?$/.test(value)) {
    throw new Error(`Context value publicUrl must be an https URL, got ${JSON.stringify(value)}`);
  }
  return value.replace(/\/$/, '');
}

function emailFrom(value: unknown): StackSettings['emailFrom'] {
  if (value === undefined) return defaultStackSettings.emailFrom;
  const text = typeof value === 'string' ? value.trim() : '';
  const match = /^(?:[^<>\r\n]*<([^\s<>@]+@([a-z0-9.-]+\.[a-z]{2,63}))>|([^\s<>@]+@([a-z0-9.-]+\.[a-z]{2,63})))$/i.exec(text);
  if (!match) throw new Error(`Context value emailFrom must be an email address, optionally as "Name <address>", got ${JSON.stringify(value)}`);
  const address = (match[1] ?? match[3])!.toLowerCase();
  return { header: text, address, domain: address.slice(address.indexOf('@') + 1) };
}

/** WAF accepts 10 to 2,000,000,000 requests per evaluation window. */
function wafRateLimit(key: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = positiveInt(key, value, 0);
  if (n < 10 || n > 2_000_000_000) throw new Error(`Context value ${key} must be 10 to 2000000000 (WAF's range), got ${JSON.stringify(value)}`);
  return n;
}

function deploymentConfig(value: unknown): DeploymentConfigName | undefined {
  if (value === undefined) return undefined;
  const match = DEPLOYMENT_CONFIG_NAMES.find((n) => n === value);
  if (!match) throw new Error(`Context value deploymentConfig must be one of ${DEPLOYMENT_CONFIG_NAMES.join(', ')}, got ${JSON.stringify(value)}`);
  return match;
}

function routeThrottles(value: unknown): StackSettings['routeThrottles'] {
  if (value === undefined) return undefined;
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      parsed = undefined;
    }
  }
  const fail = () => new Error(`Context value routeThrottles must be a JSON object {"POST /v1/auth/login": {"rateLimit": 20, "burstLimit": 40}, …}, got ${JSON.stringify(value)}`);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw fail();
  const throttles: Record<string, { rateLimit: number; burstLimit: number }> = {};
  for (const [routeKey, throttle] of Object.entries(parsed as Record<string, unknown>)) {
    if (!/^(GET|POST|PUT|PATCH|DELETE) \/\S+$/.test(routeKey) || !throttle || typeof throttle !== 'object') throw fail();
    const { rateLimit, burstLimit } = throttle as Record<string, unknown>;
    throttles[routeKey] = { rateLimit: positiveInt(`routeThrottles["${routeKey}"].rateLimit`, rateLimit ?? 'missing', 0), burstLimit: positiveInt(`routeThrottles["${routeKey}"].burstLimit`, burstLimit ?? 'missing', 0) };
  }
  return throttles;
}

function customDomain(nameKey: string, certificateKey: string, nameValue: unknown, certificateValue: unknown): CustomDomain | undefined {
  if ((nameValue === undefined || nameValue === '') && (certificateValue === undefined || certificateValue === '')) return undefined;
  if (typeof nameValue !== 'string' || !/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(nameValue)) {
    throw new Error(`Context value ${nameKey} must be a lower-case domain name (with ${certificateKey}), got ${JSON.stringify(nameValue)}`);
  }
  if (typeof certificateValue !== 'string' || !/^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[0-9a-f-]+$/.test(certificateValue)) {
    throw new Error(`Context value ${certificateKey} must be an ACM certificate ARN (with ${nameKey}), got ${JSON.stringify(certificateValue)}`);
  }
  return { name: nameValue, certificateArn: certificateValue };
}

function name(key: string, value: unknown): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(value)) throw new Error(`Context value ${key} must be letters, digits, _ and -, got ${JSON.stringify(value)}`);
  return value;
}

/** Drops absent optional fields, so settings compare equal with or without them (exactOptionalPropertyTypes). */
function withoutUndefined<T extends object>(fields: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

/**
 * Reads the settings from context keys `env`, `publicUrl`, `throttleRate`, `throttleBurst`,
 * `logRetentionDays`, `tracing`, `emailFrom`, `sesConfigurationSet`, and for issue 13's
 * hardening `production`, `deploymentConfig`, `backupDailyDays`, `backupWeeklyDays`,
 * `backupMonthlyDays`, `edgeRateLimitAuth`, `edgeRateLimitMfa`, `routeThrottles` (JSON),
 * `passwordHashingConcurrency`, `apiDomainName` + `apiCertificateArn`, `edgeDomainName` +
 * `edgeCertificateArn`.
 */
export function readStackSettings(node: Node): StackSettings {
  const get = (key: string): unknown => node.tryGetContext(key) as unknown;
  const env = get('env') ?? defaultStackSettings.env;
  if (typeof env !== 'string' || !ENV_PATTERN.test(env)) {
    throw new Error(`Context value env must be lower-case letters, digits and dashes (at most 32), got ${JSON.stringify(env)}`);
  }
  const rateLimit = positiveInt('throttleRate', get('throttleRate'), defaultStackSettings.throttle.rateLimit);
  const burstLimit = positiveInt('throttleBurst', get('throttleBurst'), defaultStackSettings.throttle.burstLimit);
  return {
    env,
    publicUrl: url(get('publicUrl')),
    throttle: { rateLimit, burstLimit },
    logRetention: retention(get('logRetentionDays'), defaultStackSettings.logRetention),
    tracing: bool('tracing', get('tracing'), defaultStackSettings.tracing),
    emailFrom: emailFrom(get('emailFrom')),
    sesConfigurationSet: name('sesConfigurationSet', get('sesConfigurationSet')),
    ...withoutUndefined({
      production: get('production') === undefined ? undefined : bool('production', get('production'), false),
      deploymentConfig: deploymentConfig(get('deploymentConfig')),
      backupRetentionDays: ['backupDailyDays', 'backupWeeklyDays', 'backupMonthlyDays'].some((k) => get(k) !== undefined)
        ? (() => {
            const fallback = hardeningDefaults(false).backupRetentionDays;
            const days = {
              daily: positiveInt('backupDailyDays', get('backupDailyDays'), fallback.daily),
              weekly: positiveInt('backupWeeklyDays', get('backupWeeklyDays'), fallback.weekly),
              monthly: positiveInt('backupMonthlyDays', get('backupMonthlyDays'), fallback.monthly),
            };
            if (!(days.daily <= days.weekly && days.weekly <= days.monthly)) throw new Error(`Context values backupDailyDays <= backupWeeklyDays <= backupMonthlyDays, got ${JSON.stringify(days)}`);
            return days;
          })()
        : undefined,
      edgeRateLimits: get('edgeRateLimitAuth') !== undefined || get('edgeRateLimitMfa') !== undefined
        ? { auth: wafRateLimit('edgeRateLimitAuth', get('edgeRateLimitAuth')) ?? hardeningDefaults(false).edgeRateLimits.auth, mfa: wafRateLimit('edgeRateLimitMfa', get('edgeRateLimitMfa')) ?? hardeningDefaults(false).edgeRateLimits.mfa }
        : undefined,
      routeThrottles: routeThrottles(get('routeThrottles')),
      passwordHashingConcurrency: get('passwordHashingConcurrency') === undefined ? undefined : positiveInt('passwordHashingConcurrency', get('passwordHashingConcurrency'), 0),
      apiDomain: customDomain('apiDomainName', 'apiCertificateArn', get('apiDomainName'), get('apiCertificateArn')),
      edgeDomain: customDomain('edgeDomainName', 'edgeCertificateArn', get('edgeDomainName'), get('edgeCertificateArn')),
    }),
  };
}
