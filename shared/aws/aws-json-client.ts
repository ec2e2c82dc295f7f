/**
 * A client of an AWS service that speaks the AWS JSON protocol (1.0: DynamoDB, SQS; 1.1: KMS,
 * Secrets Manager): `POST /` with `X-Amz-Target: <prefix>.<Operation>` and the operation's
 * input as the JSON body, answered by its output as JSON; an error is a 4xx/5xx whose body's
 * `__type` names the exception (after any `namespace#`) and whose `message` (or `Message`)
 * says why. The error carries the body's other members as its own properties, as the SDK's
 * exceptions do (DynamoDB's `CancellationReasons`). Blobs (`Uint8Array`) are sent as base64
 * strings, as the protocol wants; an answer's blobs stay base64 strings for the caller to read.
 *
 * Services that moved from the Query protocol (SQS) are "query-compatible": asked with
 * `x-amzn-query-mode: true`, they also send the Query error code in `x-amzn-query-error:
 * <code>;<Sender|Receiver>`. The SDK names such an error as its model does: the modeled
 * exception (`__type` in the service's own namespace, `com.amazonaws.sqs#QueueDoesNotExist`)
 * by its name, any other (`com.amazon.coral.service#AccessDeniedException`) by its Query code
 * (`AccessDenied`); so does this client, so callers see the names they saw with the SDK.
 */
import { crc32 } from 'node:zlib';
import { createAwsRequester, hostHeader, MAX_ATTEMPTS, type AwsAnswer, type AwsServiceOptions } from './signed-request';

export interface AwsJsonClient {
  call<Output = Record<string, unknown>>(operation: string, input: object): Promise<Output>;
  /** Closes the kept-alive connections (a process that ends). */
  destroy(): void;
}

/** An error answer of an AWS service: `name` is the exception's (`ConditionalCheckFailedException`…). */
export class AwsServiceError extends Error {
  /** The answer's other members, as sent (DynamoDB's `CancellationReasons`, `Item`…). */
  readonly details: Record<string, unknown>;
  constructor(
    name: string,
    message: string,
    readonly status: number,
    details: Record<string, unknown> = {},
  ) {
    super(message);
    Object.assign(this, details);
    this.name = name;
    this.details = details;
  }
}

export interface AwsJsonService {
  /** The signing name and the host's first label (`dynamodb`, `kms`, `secretsmanager`, `sqs`). */
  service: string;
  /** `X-Amz-Target`'s prefix (`DynamoDB_20120810`, `TrentService`, `secretsmanager`, `AmazonSQS`). */
  targetPrefix: string;
  jsonVersion: '1.0' | '1.1';
  /** The service's name in traces, as the X-Ray SDK gives it (`DynamoDB`, `KMS`, `Secrets Manager`, `SQS`). */
  tracedName: string;
  /** Query-compatible services (SQS): the Smithy namespace of their modeled exceptions (`com.amazonaws.sqs`). */
  queryCompatibleNamespace?: string;
  /** DynamoDB signs each answer with a CRC32 of its body (`x-amz-crc32`): checked, and a mismatch retried. */
  checkCrc32?: boolean;
}

const parseJson = (body: Buffer): Record<string, unknown> => {
  if (body.length === 0) return {};
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/** A JSON replacer: a blob is its base64 (read from the holder, before a Buffer's own `toJSON`). */
function blobsAsBase64(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const original = this[key];
  return original instanceof Uint8Array ? Buffer.from(original.buffer, original.byteOffset, original.byteLength).toString('base64') : value;
}

/** The exception's name of an error answer, as the SDK gives it (see the header comment). */
const errorNameOf = (answer: AwsAnswer, queryCompatibleNamespace: string | undefined): string | undefined => {
  if (answer.status < 300) return undefined;
  const type = parseJson(answer.body).__type ?? answer.headers['x-amzn-errortype'];
  const fullName = typeof type === 'string' ? type.split(':')[0]! : undefined;
  const queryError = answer.headers['x-amzn-query-error'];
  if (queryCompatibleNamespace !== undefined && typeof queryError === 'string' && !fullName?.startsWith(`${queryCompatibleNamespace}#`)) {
    return queryError.split(';')[0];
  }
  return fullName?.split('#').pop();
};

export function createAwsJsonClient(spec: AwsJsonService, options: AwsServiceOptions): AwsJsonClient {
  const requester = createAwsRequester(spec.service, options);
  const endpoint = requester.endpoint;
  const where = endpoint
    ? { protocol: endpoint.protocol, hostname: endpoint.hostname, port: endpoint.port ? Number(endpoint.port) : undefined, path: endpoint.pathname || '/' }
    : { protocol: 'https:', hostname: `${spec.service}.${options.region}.amazonaws.com`, port: undefined, path: '/' };
  const contentType = `application/x-amz-json-${spec.jsonVersion}`;
  const errorCodeOf = (answer: AwsAnswer) => errorNameOf(answer, spec.queryCompatibleNamespace);
  const queryMode: Record<string, string> = spec.queryCompatibleNamespace !== undefined ? { 'x-amzn-query-mode': 'true' } : {};

  return {
    async call<Output>(operation: string, input: object): Promise<Output> {
      const body = Buffer.from(JSON.stringify(input, blobsAsBase64), 'utf8');
      const request = {
        method: 'POST' as const,
        ...where,
        headers: { host: hostHeader(where.hostname, where.port), 'content-type': contentType, 'x-amz-target': `${spec.targetPrefix}.${operation}`, ...queryMode },
        body,
      };
      for (let attempt = 1; ; attempt++) {
        const answer = await requester.send(request, errorCodeOf, { service: spec.tracedName, operation });
        const parsed = parseJson(answer.body);
        if (answer.status >= 300) {
          const details = { ...parsed };
          const message = [details.message, details.Message].find((m): m is string => typeof m === 'string') ?? `${spec.service} answered ${answer.status}`;
          for (const member of ['__type', 'message', 'Message']) delete details[member];
          throw new AwsServiceError(errorCodeOf(answer) ?? `Http${answer.status}`, message, answer.status, details);
        }
        const sent = answer.headers['x-amz-crc32'];
        if (spec.checkCrc32 && typeof sent === 'string' && Number(sent) !== crc32(answer.body)) {
          // A body damaged on the way: the SDK retries it as a transient failure.
          if (attempt < MAX_ATTEMPTS) continue;
          throw new AwsServiceError('CRC32CheckFailed', `${spec.service} answer failed its CRC32 check`, answer.status);
        }
        return parsed as Output;
      }
    },
    destroy: () => requester.destroy(),
  };
}
