/**
 * The AWS SDK clients of one discovery page read. Credentials always come from the connection's
 * configuration (or the role sessions made from it), never from the default chain, which would
 * be the service's own Lambda role.
 *
 * Throttling is left to the SDK's own standard retry strategy (a few attempts with jittered
 * exponential backoff, longer for throttling errors); every attempt, retries included, first
 * waits for the run's pacer. When the SDK gives up, the call answers when to try again: the
 * `Retry-After` the provider sent, if any, else at least as long as the SDK already waited.
 */
import { IAMClient } from '@aws-sdk/client-iam';
import { STSClient } from '@aws-sdk/client-sts';
import { classifyAwsError, type AwsFailure } from './errors';
import type { DiscoveryContext } from '../discovery';
import { retryAtFrom } from '../discovery-page';

export const AWS_DISCOVERY_MAX_ATTEMPTS = 3;
/** The least pause after the SDK gave up on a throttled call. */
const MIN_THROTTLE_PAUSE_MS = 1_000;

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /** Epoch ms; absent for long-term keys. */
  expiresAtMs?: number;
}

export type AwsCall<T> = { ok: true; value: T } | { ok: false; failure: AwsFailure; retryAtMs: number };

export class AwsDiscoveryClients {
  private readonly clients: { destroy(): void }[] = [];

  constructor(
    private readonly region: string,
    private readonly context: DiscoveryContext,
  ) {}

  sts(credentials: AwsCredentials): STSClient {
    const client = new STSClient({ ...this.options(credentials), endpoint: this.context.endpoints?.sts });
    client.middlewareStack.addRelativeTo(this.pacing('aws:sts'), PACING);
    return this.keep(client);
  }

  /** IAM limits are per account: one pacer bucket each. */
  iam(credentials: AwsCredentials, account: string): IAMClient {
    const client = new IAMClient({ ...this.options(credentials), endpoint: this.context.endpoints?.iam });
    client.middlewareStack.addRelativeTo(this.pacing(`aws:iam:${account}`), PACING);
    return this.keep(client);
  }

  async call<T>(bucket: string, run: (abortSignal: AbortSignal) => Promise<T>): Promise<AwsCall<T>> {
    try {
      return { ok: true, value: await run(this.context.signal) };
    } catch (error) {
      const failure = classifyAwsError(error, this.context.signal);
      const now = this.context.now();
      const retryAtMs = retryAtFrom(retryAfterOf(error), now, Math.max(MIN_THROTTLE_PAUSE_MS, totalRetryDelayOf(error)));
      if (failure.kind === 'throttled') this.context.pacer.observe(bucket, { retryAtMs });
      return { ok: false, failure, retryAtMs };
    }
  }

  /** Closes the sockets the clients keep alive. */
  close(): void {
    for (const client of this.clients) client.destroy();
  }

  private options(credentials: AwsCredentials) {
    const { accessKeyId, secretAccessKey, sessionToken } = credentials;
    return {
      region: this.region,
      credentials: { accessKeyId, secretAccessKey, sessionToken },
      maxAttempts: AWS_DISCOVERY_MAX_ATTEMPTS,
      retryMode: 'standard',
    };
  }

  /** Runs inside the SDK's retry loop, before signing: each attempt waits its turn, then is signed fresh. */
  private pacing(bucket: string) {
    const { pacer, signal } = this.context;
    return <A, R>(next: (args: A) => Promise<R>) =>
      async (args: A): Promise<R> => {
        await pacer.wait(bucket, signal);
        return next(args);
      };
  }

  private keep<C extends { destroy(): void }>(client: C): C {
    this.clients.push(client);
    return client;
  }
}

const PACING = { relation: 'before', toMiddleware: 'httpSigningMiddleware', name: 'tesseraDiscoveryPacer' } as const;

/** The SDK's service errors carry the raw response; `Retry-After` is rare at AWS but honoured. */
function retryAfterOf(error: unknown): string | undefined {
  const response = property(error, '$response');
  const headers = property(response, 'headers');
  if (!headers || typeof headers !== 'object') return undefined;
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === 'retry-after' && typeof value === 'string') return value;
  }
  return undefined;
}

function totalRetryDelayOf(error: unknown): number {
  const delay = property(property(error, '$metadata'), 'totalRetryDelay');
  return typeof delay === 'number' && Number.isFinite(delay) ? delay : 0;
}

function property(value: unknown, name: string): unknown {
  return value && typeof value === 'object' && name in value ? (value as Record<string, unknown>)[name] : undefined;
}
