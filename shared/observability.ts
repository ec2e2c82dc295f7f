/**
 * Structured logs and EMF metrics (AWS Lambda Powertools). One logger and one metrics
 * instance per cold start; a request gets a child logger carrying its request id.
 * Secrets are kept out by construction: nothing logs a request body or a credential, and the
 * logger also redacts the few field names that could carry one.
 *
 * Identity metrics carry one dimension from a closed set (`method`, or `kind` for TokenUse), so
 * each is a handful of series: never a tenant, user or token id (README, "Observability").
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

export const metricNames = {
  loginFailure: 'LoginFailure',
  loginSuccess: 'LoginSuccess',
  mfaFailure: 'MfaFailure',
  mfaSuccess: 'MfaSuccess',
  tokenUse: 'TokenUse',
  runSucceeded: 'RunSucceeded',
  runPartial: 'RunPartial',
  runFailed: 'RunFailed',
} as const;

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

export function createObservability(): Observability {
  const logger = new Logger({ serviceName: 'tessera' });
  const metrics = new Metrics({ namespace: 'Tessera', serviceName: 'tessera' });
  return {
    logger,
    metrics,
    count: (metric, dimensions) => {
      if (!dimensions) {
        metrics.addMetric(metric, MetricUnit.Count, 1);
        return;
      }
      const single = metrics.singleMetric();
      single.addDimensions(dimensions);
      single.addMetric(metric, MetricUnit.Count, 1);
    },
    flush: () => {
      if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
    },
  };
}
