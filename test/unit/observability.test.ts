import { afterEach, describe, expect, it, vi } from 'vitest';
import { createObservability, metricNames, requestLogger } from '../../shared/observability';

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

  it('counts sign-ins, MFA answers and token uses with one low-cardinality dimension each', () => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    const observability = createObservability();
    observability.count(metricNames.loginSuccess, { method: 'password' });
    observability.count(metricNames.loginFailure, { method: 'sso' });
    observability.count(metricNames.mfaSuccess, { method: 'totp' });
    observability.count(metricNames.mfaFailure, { method: 'backup_code' });
    observability.count(metricNames.tokenUse, { kind: 'jwt' });
    observability.count(metricNames.tokenUse, { kind: 'pat' });
    observability.flush();
    type Emf = Record<string, unknown> & { _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] } };
    const documents = lines.join('').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Emf);
    const seen = documents.flatMap((doc) =>
      doc._aws.CloudWatchMetrics.flatMap((set) =>
        set.Metrics.map((m) => {
          const dimensions = set.Dimensions.flat().filter((d) => d !== 'service');
          expect(set.Namespace).toBe('Tessera');
          expect(m.Unit).toBe('Count');
          // No tenant, user or token id among the dimensions: only the one bounded name.
          expect(dimensions).toHaveLength(1);
          return `${m.Name} ${dimensions.map((d) => `${d}=${String(doc[d])}`).join(' ')} ${JSON.stringify(doc[m.Name])}`;
        }),
      ),
    );
    expect(seen.sort()).toEqual(
      ['LoginSuccess method=password 1', 'LoginFailure method=sso 1', 'MfaSuccess method=totp 1', 'MfaFailure method=backup_code 1', 'TokenUse kind=jwt 1', 'TokenUse kind=pat 1'].sort(),
    );
  });
});

describe('request logs', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it('carry the request id and route on every entry, and the entry\'s own attributes', () => {
    vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'INFO');
    vi.stubEnv('POWERTOOLS_DEV', 'false');
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    const observability = createObservability();
    const first = requestLogger(observability.logger, { request_id: 'req-1', route: 'GET /v1/me' });
    const second = requestLogger(observability.logger, { request_id: 'req-2', route: 'GET /v1/me' });
    first.info('request', { status: 200 });
    second.info('request refused', { status: 401, code: 'unauthenticated' });
    first.info('request', { status: 204 });
    const entries = lines.join('').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.map(({ message, request_id, route, status }) => ({ message, request_id, route, status }))).toEqual([
      { message: 'request', request_id: 'req-1', route: 'GET /v1/me', status: 200 },
      { message: 'request refused', request_id: 'req-2', route: 'GET /v1/me', status: 401 },
      { message: 'request', request_id: 'req-1', route: 'GET /v1/me', status: 204 },
    ]);
    expect(entries[1]).toMatchObject({ service: 'tessera', level: 'INFO', code: 'unauthenticated' });
  });
});
