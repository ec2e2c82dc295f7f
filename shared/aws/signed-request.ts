/**
 * One signed HTTP request to an AWS service, as the SDK's clients send it: SigV4 with the SDK's
 * own signer (`@smithy/signature-v4`), the Lambda role's credentials from the environment
 * (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`, what the runtime sets),
 * a keep-alive connection per client (`node:http`/`node:https` agents, as the SDK's node
 * handler), and the SDK's standard retry mode: at most 3 attempts, retrying throttling answers,
 * 500/502/503/504 and a broken connection, after a full-jitter exponential backoff.
 *
 * Tessera's AWS clients (`aws-json-client.ts`, with DynamoDB, KMS, Secrets Manager and SQS on
 * it; `s3-client.ts`; `sesv2-client.ts`) are built on it in place of the SDK's generated
 * clients, whose shared runtime (`@smithy/core`, the endpoint rule engine, the protocol serdes)
 * made up most of every function's bundle and of its import time (docs/benchmarks.md, cold
 * starts). Each call is traced as the X-Ray SDK traces
 * an SDK client's (`tracing.traceAwsCall`).
 */
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { fromEnv } from '@aws-sdk/credential-provider-env';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentityProvider, Checksum, SourceData } from '@smithy/types';
import { tracing } from '../tracing';

export interface AwsServiceOptions {
  region: string;
  /** An endpoint other than AWS's (DynamoDB Local, the tests' servers). */
  endpoint?: string;
  credentials?: AwsCredentialIdentityProvider;
}

export interface SignedRequest {
  method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  protocol: string;
  hostname: string;
  port?: number;
  /** Already URI-encoded, as sent. */
  path: string;
  query?: Record<string, string>;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface AwsAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** The SHA-256 (or HMAC-SHA-256 with a secret) the signer asks for, on node:crypto. */
class NodeSha256 implements Checksum {
  private hash: Hash | Hmac;
  constructor(private readonly secret?: SourceData) {
    this.hash = this.fresh();
  }
  private fresh(): Hash | Hmac {
    return this.secret === undefined ? createHash('sha256') : createHmac('sha256', toBuffer(this.secret));
  }
  update(data: Uint8Array): void {
    this.hash.update(data);
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
  reset(): void {
    this.hash = this.fresh();
  }
}

function toBuffer(data: SourceData): Buffer {
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return Buffer.from(data);
}

/** RFC 3986 unreserved characters stay; everything else is percent-encoded (SigV4's UriEncode). */
export const uriEncode = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export function queryString(query: Record<string, string | string[] | null>): string {
  return Object.entries(query)
    .flatMap(([name, value]) => (value === null ? [uriEncode(name)] : (Array.isArray(value) ? value : [value]).map((v) => `${uriEncode(name)}=${uriEncode(v)}`)))
    .join('&');
}

/** The error codes AWS answers for throttling (the SDK's `THROTTLING_ERROR_CODES`): retried after a backoff. */
const THROTTLING_CODES = new Set([
  'BandwidthLimitExceeded',
  'EC2ThrottledException',
  'LimitExceededException',
  'PriorRequestNotComplete',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'RequestThrottled',
  'RequestThrottledException',
  'SlowDown',
  'ThrottledException',
  'Throttling',
  'ThrottlingException',
  'TooManyRequestsException',
  'TransactionInProgressException',
]);
const TRANSIENT_STATUS = new Set([500, 502, 503, 504]);
const TRANSIENT_NETWORK = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT']);
export const MAX_ATTEMPTS = 3;
const BASE_DELAY_MS = 100;
const MAX_DELAY_MS = 20_000;

/** An answer worth another attempt (the caller reads the error code from its own protocol). */
export const isRetryableAnswer = (status: number, code: string | undefined) => TRANSIENT_STATUS.has(status) || (code !== undefined && THROTTLING_CODES.has(code));

export interface AwsRequester {
  signer: SignatureV4;
  /** Where a request goes: the endpoint's, or the service's AWS host. */
  endpoint: URL | undefined;
  /**
   * Signs and sends, retrying as the SDK's standard mode does. `errorCode` reads an error
   * answer's code, so throttling is retried whatever the protocol; `trace` names the call in
   * X-Ray (the service as the X-Ray SDK names it: `DynamoDB`, `S3`…, and the operation).
   */
  send(request: SignedRequest, errorCode: (answer: AwsAnswer) => string | undefined, trace: { service: string; operation: string }): Promise<AwsAnswer>;
  destroy(): void;
}

export function createAwsRequester(service: string, options: AwsServiceOptions & { applyChecksum?: boolean; uriEscapePath?: boolean }): AwsRequester {
  const signer = new SignatureV4({
    service,
    region: options.region,
    credentials: options.credentials ?? fromEnv(),
    sha256: NodeSha256,
    uriEscapePath: options.uriEscapePath ?? true,
    applyChecksum: options.applyChecksum ?? false,
  });
  const agents = { 'http:': new HttpAgent({ keepAlive: true, maxSockets: 50 }), 'https:': new HttpsAgent({ keepAlive: true, maxSockets: 50 }) };

  const once = async (request: SignedRequest): Promise<AwsAnswer> => {
    const signed = await signer.sign({ ...request, query: request.query ?? {} });
    const query = queryString(signed.query ?? {});
    const https = request.protocol === 'https:';
    return new Promise((resolve, reject) => {
      const outgoing = (https ? httpsRequest : httpRequest)(
        {
          method: request.method,
          hostname: request.hostname,
          port: request.port,
          path: `${request.path}${query ? `?${query}` : ''}`,
          headers: { ...signed.headers, ...(request.body ? { 'content-length': String(request.body.length) } : {}) },
          agent: https ? agents['https:'] : agents['http:'],
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks) }));
          incoming.on('error', reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(request.body);
    });
  };

  return {
    signer,
    endpoint: options.endpoint ? new URL(options.endpoint) : undefined,
    send(request, errorCode, trace) {
      return tracing.traceAwsCall({ ...trace, region: options.region }, () => sendWithRetries(request, errorCode));
    },
    destroy() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };

  async function sendWithRetries(request: SignedRequest, errorCode: (answer: AwsAnswer) => string | undefined): Promise<AwsAnswer> {
      for (let attempt = 1; ; attempt++) {
        let answer: AwsAnswer;
        try {
          answer = await once(request);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (attempt >= MAX_ATTEMPTS || !code || !TRANSIENT_NETWORK.has(code)) throw error;
          await backoff(attempt);
          continue;
        }
        if (answer.status < 300 || attempt >= MAX_ATTEMPTS || !isRetryableAnswer(answer.status, errorCode(answer))) return answer;
        await backoff(attempt);
      }
  }
}

const backoff = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt)));

/** `host` (with a non-default port) as signed; the request sends the same. */
export function hostHeader(hostname: string, port: number | undefined): string {
  return port ? `${hostname}:${port}` : hostname;
}
