/**
 * Structured logs and EMF metrics (AWS Lambda Powertools). One logger and one metrics
 * instance per cold start; a request logs through a `RequestLogger` that adds its request id
 * to each entry (a Powertools child logger would be a whole new Logger, with its own console,
 * on every request).
 * Secrets are kept out by construction: nothing logs a request body or a credential, and the
 * logger also redacts the few field names that could carry one.
 *
 * Identity metrics carry one dimension from a closed set (`method`, or `kind` for TokenUse), so
 * each is a handful of series: never a tenant, user or token id (README, "Observability").
 */
import type { MiddlewareObj } from '@middy/core';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

/** The EMF namespace and the `service` dimension of every metric (the stack's alarms read them too). */
export const METRICS_NAMESPACE = 'Tessera';
export const SERVICE_NAME = 'tessera';

export const metricNames = {
  loginFailure: 'LoginFailure',
  loginSuccess: 'LoginSuccess',
  mfaFailure: 'MfaFailure',
  mfaSuccess: 'MfaSuccess',
  tokenUse: 'TokenUse',
  runSucceeded: 'RunSucceeded',
  runPartial: 'RunPartial',
  runFailed: 'RunFailed',
  emailSendFailure: 'EmailSendFailure',
} as const;

/**
 * The message of the error line a request that ends in a 5xx logs; the stack counts these lines
 * (a metric filter) to roll a deployment back (infra/deployment-safety.ts).
 */
export const SERVER_ERROR_LOG_MESSAGE = 'request failed';

export type MetricName = (typeof metricNames)[keyof typeof metricNames];

/** The dimension a metric may carry, with its few values. */
interface MetricDimensionsByName {
  LoginSuccess: { method: 'password' | 'sso' };
  LoginFailure: { method: 'password' | 'sso' };
  MfaSuccess: { method: 'totp' | 'backup_code' };
  MfaFailure: { method: 'totp' | 'backup_code' };
  TokenUse: { kind: 'jwt' | 'pat' };
}
export type MetricDimensions<M extends MetricName> = M extends keyof MetricDimensionsByName ? MetricDimensionsByName[M] : never;

export interface Observability {
  logger: Logger;
  metrics: Metrics;
  /** Count one; with its dimension, as a metric of its own (one EMF document, emitted at once). */
  count<M extends MetricName>(metric: M, dimensions?: MetricDimensions<M>): void;
  /** Emit what this request counted (EMF); nothing when it counted nothing. */
  flush(): void;
}

/**
 * X-Ray tracing of a function (shared/tracing.ts, the Powertools Tracer): its handler as a
 * subsegment and its AWS calls as theirs. A bundle of an environment without tracing gets
 * shared/tracing-off.ts in its place (infra/tracing-plugin.ts), which carries no X-Ray SDK.
 */
export interface Tracing {
  /** The middy middleware that traces a route's invocation; none when tracing is off. */
  handlerMiddleware(): MiddlewareObj | undefined;
  /**
   * One call of Tessera's own AWS clients (shared/aws/), retries included, as the X-Ray SDK
   * traces an SDK client's: a subsegment named after the service, namespace `aws`, its
   * operation and region, flagged by the answer's status (4xx error, 429 throttle, 5xx fault).
   */
  traceAwsCall<T extends { status: number }>(call: { service: string; operation: string; region: string }, run: () => Promise<T>): Promise<T>;
}

/** The process logger as one request sees it: each entry carries the request's keys. */
export interface RequestLogger {
  info(message: string, attributes?: Record<string, unknown>): void;
  error(message: string, attributes?: Record<string, unknown>): void;
}

export function requestLogger(logger: Logger, keys: Record<string, string>): RequestLogger {
  return {
    info: (message, attributes) => logger.info(message, { ...keys, ...attributes }),
    error: (message, attributes) => logger.error(message, { ...keys, ...attributes }),
  };
}

export function createObservability(): Observability {
  const logger = new Logger({ serviceName: SERVICE_NAME });
  const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME });
  // Made once and reused: a single-metric instance emits and forgets its dimensions on every
  // addMetric (synchronously, so requests interleaved in one process cannot mix them), and
  // building one is a whole Metrics with its own console, too dear for every request.
  let single: Metrics | undefined;
  return {
    logger,
    metrics,
    count: (metric, dimensions) => {
      if (!dimensions) {
        metrics.addMetric(metric, MetricUnit.Count, 1);
        return;
      }
      single ??= metrics.singleMetric();
      single.addDimensions(dimensions);
      single.addMetric(metric, MetricUnit.Count, 1);
    },
    flush: () => {
      if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
    },
  };
}
