/**
 * One HTTP call to a provider's JSON API, with every way it can go wrong turned into a value:
 * the connectors map answers to remediation and must never throw.
 */

export type ProviderAnswer =
  | { kind: 'answer'; status: number; headers: Headers; body: unknown }
  | { kind: 'timeout' }
  | { kind: 'unreachable'; reason: string };

export interface ProviderRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** The caller's time limit: aborts the connection and the body read alike. */
  signal: AbortSignal;
}

export async function callProvider(url: string, request: ProviderRequest): Promise<ProviderAnswer> {
  try {
    const response = await fetch(url, {
      method: request.method ?? 'GET',
      headers: { accept: 'application/json', ...request.headers },
      body: request.body,
      signal: request.signal,
      // A redirect would carry the credential to wherever the provider (or a spoofed host)
      // points; discovery APIs do not redirect, so a 3xx is reported as an odd answer.
      redirect: 'manual',
    });
    const text = await response.text();
    return { kind: 'answer', status: response.status, headers: response.headers, body: parseJson(text) };
  } catch (error) {
    if (request.signal.aborted) return { kind: 'timeout' };
    return { kind: 'unreachable', reason: networkReason(error) };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** `ECONNREFUSED`, `ENOTFOUND`...: fetch wraps the socket error in a TypeError's `cause`. */
function networkReason(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause && typeof cause === 'object' && 'code' in cause && typeof cause.code === 'string') return cause.code;
  return 'network error';
}

/** A string property of a JSON object, if present: provider bodies are untrusted `unknown`. */
export function stringField(body: unknown, ...path: string[]): string | undefined {
  let value: unknown = body;
  for (const key of path) {
    if (!value || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return typeof value === 'string' ? value : undefined;
}
