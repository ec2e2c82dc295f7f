/**
 * The calls of one Azure discovery page read: access tokens (memoized in the step's session,
 * never in a cursor) and paced GETs to Microsoft Graph and Azure Resource Manager whose answers
 * come back as values. Every request first waits for the run's pacer; a 429 (or a 503 with
 * `Retry-After`) tells the pacer and the engine when to come back.
 */
import type { AzureConfiguration } from './integration';
import { ARM_SCOPE, GRAPH_SCOPE, type AzureEndpoints } from './endpoints';
import { tokenNotAccepted } from './remediation';
import { answerItem, requestToken, transportItem } from './token';
import type { RemediationItem } from '../connector';
import type { DiscoveryContext, PageOutcome } from '../discovery';
import { failed, retryAtFrom } from '../discovery-page';
import { startTimer, unexpectedAnswer } from '../outcome';
import { callProvider, stringField } from '../provider-http';

export type AzureSurface = 'graph' | 'arm';

export type AzureRead =
  | { kind: 'ok'; body: unknown }
  | { kind: 'throttled'; retryAtMs: number }
  /** 400, 403, 404...: the caller knows what each means for its read. */
  | { kind: 'refused'; status: number; code: string | undefined }
  | { kind: 'failed'; item: RemediationItem };

/** Without a Retry-After, come back after this long (Graph's guidance: back off). */
const THROTTLE_FALLBACK_MS = 10_000;
/** A token is renewed when it has less than this left. */
const TOKEN_MARGIN_MS = 120_000;

export const PROVIDER_NAME: Record<AzureSurface, string> = { graph: 'Microsoft Graph', arm: 'Azure Resource Manager' };

export class AzureDiscoveryHttp {
  private readonly elapsed = startTimer();

  constructor(
    private readonly configuration: AzureConfiguration,
    readonly endpoints: AzureEndpoints,
    private readonly context: DiscoveryContext,
  ) {}

  /** A token for Graph or ARM, or the outcome that ends this read. */
  async token(surface: AzureSurface): Promise<{ ok: true; accessToken: string } | { ok: false; outcome: PageOutcome }> {
    const scope = surface === 'graph' ? GRAPH_SCOPE : ARM_SCOPE;
    const key = `azure:${this.configuration.tenant_id}:${this.configuration.client_id}:token:${scope}`;
    const cached = this.context.session.get(key) as { accessToken: string; expiresAtMs: number } | undefined;
    if (cached && cached.expiresAtMs - this.context.now() > TOKEN_MARGIN_MS) return { ok: true, accessToken: cached.accessToken };

    await this.context.pacer.wait('azure:login', this.context.signal);
    const token = await requestToken({ configuration: this.configuration, login: this.endpoints.login, scope, signal: this.context.signal, elapsed: this.elapsed });
    if (!token.ok) {
      if (token.retryAfter === undefined) return { ok: false, outcome: failed([token.item]) };
      const retryAtMs = retryAtFrom(token.retryAfter, this.context.now(), THROTTLE_FALLBACK_MS);
      this.context.pacer.observe('azure:login', { retryAtMs });
      return { ok: false, outcome: { kind: 'throttled', retryAtMs } };
    }
    this.context.session.set(key, { accessToken: token.accessToken, expiresAtMs: this.context.now() + token.expiresInSeconds * 1000 });
    return { ok: true, accessToken: token.accessToken };
  }

  /**
   * GET an absolute URL of the surface. A next link is followed only when it points at the
   * endpoint in use: the token must never go to another host.
   */
  async get(surface: AzureSurface, url: string, accessToken: string, bucket: string): Promise<AzureRead> {
    const provider = PROVIDER_NAME[surface];
    if (!sameOrigin(url, this.endpoints[surface])) return { kind: 'failed', item: unexpectedAnswer(provider, 'a next link to another host, not followed') };
    await this.context.pacer.wait(bucket, this.context.signal);
    const answer = await callProvider(url, { headers: { authorization: `Bearer ${accessToken}` }, signal: this.context.signal });
    if (answer.kind !== 'answer') return { kind: 'failed', item: transportItem(provider, answer, this.elapsed()) };

    const remaining = Number(answer.headers.get('x-ms-ratelimit-remaining-subscription-reads') ?? NaN);
    if (Number.isFinite(remaining)) this.context.pacer.observe(bucket, { remaining });
    const retryAfter = answer.headers.get('retry-after');
    if (answer.status === 429 || (answer.status === 503 && retryAfter !== null)) {
      const retryAtMs = retryAtFrom(retryAfter, this.context.now(), THROTTLE_FALLBACK_MS);
      this.context.pacer.observe(bucket, { retryAtMs });
      return { kind: 'throttled', retryAtMs };
    }
    if (answer.status === 200) return { kind: 'ok', body: answer.body };
    const code = stringField(answer.body, 'error', 'code');
    // A subscription of another tenant answers 401 InvalidAuthenticationTokenTenant: not a bad token.
    if (answer.status === 401 && code !== 'InvalidAuthenticationTokenTenant') return { kind: 'failed', item: tokenNotAccepted(provider, this.configuration.client_id) };
    if (answer.status >= 400 && answer.status < 500) return { kind: 'refused', status: answer.status, code };
    return { kind: 'failed', item: answerItem(provider, answer) };
  }
}

function sameOrigin(url: string, base: string): boolean {
  try {
    return new URL(url).origin === new URL(base).origin;
  } catch {
    return false;
  }
}

/** The `value` array of a Graph or ARM collection, objects only. */
export function collection(body: unknown): Record<string, unknown>[] {
  const value = body && typeof body === 'object' && 'value' in body ? body.value : undefined;
  return Array.isArray(value) ? value.filter((v): v is Record<string, unknown> => Boolean(v) && typeof v === 'object') : [];
}

/** Graph's `@odata.nextLink` or ARM's `nextLink`, when the answer has one. */
export function nextLinkOf(body: unknown, field: '@odata.nextLink' | 'nextLink'): string | null {
  return stringField(body, field) ?? null;
}
