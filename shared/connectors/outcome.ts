/**
 * Building blocks of a connector test result that every provider shares: the verdict, and the
 * remediation items for a provider that is slow, unreachable, throttled or answers oddly.
 *
 * Messages are written here, never copied from the provider: a provider's error text can echo
 * request details, and a remediation item is stored, audited and shown to every role.
 */
import type { ConnectorTestResult, RemediationItem } from './connector';

/** Success when nothing needs fixing; duplicates (parallel probes failing alike) collapse to one. */
export function resultOf(remediation: readonly RemediationItem[]): ConnectorTestResult {
  const seen = new Set<string>();
  const unique = remediation.filter((item) => {
    const key = `${item.category}\u0000${item.message}\u0000${item.action}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { status: unique.length === 0 ? 'success' : 'failure', remediation: unique };
}

/**
 * The clock of one test. The caller owns the time limit (an AbortSignal carries no duration),
 * so a timeout message says how long the provider was actually given.
 */
export function startTimer(): () => number {
  const started = performance.now();
  return () => performance.now() - started;
}

/** `0.3 s`, `2.5 s`, `10 s`. */
export function formatSeconds(ms: number): string {
  const seconds = Math.round(ms / 100) / 10;
  return `${seconds >= 10 ? Math.round(seconds) : seconds} s`;
}

export function timedOut(provider: string, elapsedMs: number): RemediationItem {
  return {
    category: 'connectivity',
    message: `${provider} did not answer within ${formatSeconds(elapsedMs)}.`,
    action: `Check that ${provider} is reachable from the service (network path, proxy or firewall rules, the provider's status page), then run the test again.`,
  };
}

export function unreachable(provider: string, reason: string): RemediationItem {
  return {
    category: 'connectivity',
    message: `${provider} could not be reached (${reason}).`,
    action: `Check that ${provider} is reachable from the service (DNS, network path, proxy or firewall rules), then run the test again.`,
  };
}

export function throttled(provider: string, retryHint: string): RemediationItem {
  return {
    category: 'throttling',
    message: `${provider} throttled the test (too many requests); ${retryHint}.`,
    action: `Run the test again later; if other tools share this identity's rate limit, spread their calls or give discovery its own credentials.`,
  };
}

/** An answer the connector does not expect (a 5xx, an unknown error code): reported, never thrown. */
export function unexpectedAnswer(provider: string, detail: string): RemediationItem {
  return {
    category: 'connectivity',
    message: `${provider} answered unexpectedly (${detail}).`,
    action: `Run the test again; if it persists, check the provider's status page.`,
  };
}

/**
 * The last line of defence of "never throw": a bug or an unforeseen error shape becomes a
 * failure naming only the error's class, since its message might hold request details.
 */
export async function neverThrows(provider: string, run: () => Promise<ConnectorTestResult>): Promise<ConnectorTestResult> {
  try {
    return await run();
  } catch (error) {
    const name = error instanceof Error ? error.name : typeof error;
    return resultOf([unexpectedAnswer(provider, `the test stopped on ${name}`)]);
  }
}
