/** The shared pieces of a connector test result: verdict, de-duplication, durations, never throwing. */
import { describe, expect, it } from 'vitest';
import { formatSeconds, neverThrows, resultOf, unreachable } from '../../shared/connectors/outcome';

describe('connector test outcome', () => {
  it('is a success only without remediation, and collapses identical items', () => {
    expect(resultOf([])).toEqual({ status: 'success', remediation: [] });
    const item = unreachable('Okta', 'ECONNREFUSED');
    expect(resultOf([item, { ...item }, unreachable('Okta', 'ENOTFOUND')])).toEqual({
      status: 'failure',
      remediation: [item, unreachable('Okta', 'ENOTFOUND')],
    });
  });

  it('says durations in seconds', () => {
    expect(formatSeconds(298)).toBe('0.3 s');
    expect(formatSeconds(2_460)).toBe('2.5 s');
    expect(formatSeconds(10_040)).toBe('10 s');
  });

  it('turns an unexpected error into a failure that names only its class', async () => {
    const result = await neverThrows('AWS', () => Promise.reject(new TypeError('secret=hunter2 in a message')));
    expect(result).toEqual({ status: 'failure', remediation: [expect.objectContaining({ category: 'connectivity', message: 'AWS answered unexpectedly (the test stopped on TypeError).' })] });
    expect(JSON.stringify(result)).not.toContain('hunter2');
  });
});
