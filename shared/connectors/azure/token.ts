/**
 * OAuth 2.0 client credentials at the tenant's Microsoft Entra ID token endpoint, shared by the
 * test and by discovery, and the remediation of answers every Azure call can get (throttled,
 * unreachable, odd). The secret travels in the form body, never in a URL, and no answer of the
 * endpoint is copied into a remediation item.
 */
import type { RemediationItem } from '../connector';
import { tokenRefused } from './remediation';
import { throttled, timedOut, unexpectedAnswer, unreachable } from '../outcome';
import { callProvider, stringField, type ProviderAnswer, type ProviderRequest } from '../provider-http';

export const TOKEN_ENDPOINT = 'The Microsoft Entra ID token endpoint';

export interface TokenRequest {
  configuration: { tenant_id: string; client_id: string; client_secret: string };
  /** The login origin (`https://login.microsoftonline.com` or a test server). */
  login: string;
  /** The audience, e.g. `https://graph.microsoft.com/.default`. */
  scope: string;
  signal: AbortSignal;
  elapsed: () => number;
}

export type Token =
  | { ok: true; accessToken: string; expiresInSeconds: number }
  /** `retryAfter` is set (possibly to null) only when the endpoint throttled the request. */
  | { ok: false; item: RemediationItem; retryAfter?: string | null };

export async function requestToken(request: TokenRequest): Promise<Token> {
  const { tenant_id: tenantId, client_id: clientId, client_secret: clientSecret } = request.configuration;
  const answer = await callProvider(`${request.login}/${tenantId}/oauth2/v2.0/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, scope: request.scope }).toString(),
    signal: request.signal,
  } satisfies ProviderRequest);
  if (answer.kind !== 'answer') return { ok: false, item: transportItem(TOKEN_ENDPOINT, answer, request.elapsed()) };
  const accessToken = stringField(answer.body, 'access_token');
  if (answer.status === 200 && accessToken) {
    const expiresIn = answer.body && typeof answer.body === 'object' && 'expires_in' in answer.body ? Number(answer.body.expires_in) : NaN;
    return { ok: true, accessToken, expiresInSeconds: Number.isFinite(expiresIn) ? expiresIn : 3599 };
  }
  if (answer.status === 400 || answer.status === 401) {
    const description = stringField(answer.body, 'error_description') ?? '';
    const aadsts = /^(AADSTS\d+)/.exec(description)?.[1];
    return { ok: false, item: tokenRefused(stringField(answer.body, 'error'), aadsts, clientId, tenantId) };
  }
  const item = answerItem(TOKEN_ENDPOINT, answer);
  return answer.status === 429 ? { ok: false, item, retryAfter: answer.headers.get('retry-after') } : { ok: false, item };
}

export function transportItem(provider: string, answer: Exclude<ProviderAnswer, { kind: 'answer' }>, elapsedMs: number): RemediationItem {
  return answer.kind === 'timeout' ? timedOut(provider, elapsedMs) : unreachable(provider, answer.reason);
}

/** Throttling or an answer no branch expected. */
export function answerItem(provider: string, answer: Extract<ProviderAnswer, { kind: 'answer' }>): RemediationItem {
  if (answer.status === 429) {
    const retryAfter = answer.headers.get('retry-after');
    return throttled(provider, retryAfter && /^\d+$/.test(retryAfter) ? `it asks to retry after ${retryAfter} s` : 'retry in a minute');
  }
  const code = stringField(answer.body, 'error', 'code') ?? stringField(answer.body, 'error');
  return unexpectedAnswer(provider, `HTTP ${answer.status}${code ? ` ${code}` : ''}`);
}
