import { afterEach, describe, expect, it, vi } from 'vitest';
import { createObservability, metricNames } from '../../shared/observability';

describe('EMF metrics', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it('emits what a request counted as one EMF document, and nothing when it counted nothing', () => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    const observability = createObservability();
    observability.flush();
    expect(lines).toEqual([]);
    observability.count(metricNames.loginFailure);
    observability.count(metricNames.loginFailure);
    observability.flush();
    const emf = JSON.parse(lines.join('')) as Record<string, unknown> & { _aws: { CloudWatchMetrics: { Namespace: string; Metrics: { Name: string }[] }[] } };
    expect(emf._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: 'Tessera', Metrics: [{ Name: 'LoginFailure' }] });
    expect(emf.LoginFailure).toEqual([1, 1]);
  });
});
