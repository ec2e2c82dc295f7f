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

function name(key: string, value: unknown): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(value)) throw new Error(`Context value ${key} must be letters, digits, _ and -, got ${JSON.stringify(value)}`);
  return value;
}

/**
 * Reads the settings from context keys `env`, `publicUrl`, `throttleRate`, `throttleBurst`,
 * `logRetentionDays`, `tracing`, `emailFrom`, `sesConfigurationSet`.
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
  };
}
