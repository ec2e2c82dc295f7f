/**
 * The few Amazon S3 operations Tessera calls (the audit anchor's conditional puts and listing,
 * the exports' uploads and signed downloads), over S3's REST-XML API, sent as all of Tessera's
 * AWS calls are (`signed-request.ts`: SigV4, environment credentials, the SDK's retries).
 *
 * Why not `@aws-sdk/client-s3`: every function that appends audit events records the chain's
 * head in S3, and the full client (with its checksums, endpoint rule set and XML serde for some
 * hundred operations) doubled those functions' bundles (docs/benchmarks.md, cold starts). What
 * is kept of its behaviour, from the S3 API reference:
 *
 * - Addressing: virtual-hosted (`https://<bucket>.s3.<region>.amazonaws.com/<key>`) in AWS;
 *   path-style against an endpoint given in `AWS_ENDPOINT_URL_S3` / `AWS_ENDPOINT_URL` (the SDKs'
 *   service-specific endpoint variables), as the SDK does for an IP-address endpoint.
 * - Signing: service `s3`, the path signed as sent (S3 does not double-encode it), the payload's
 *   SHA-256 in `x-amz-content-sha256`; presigned URLs with `UNSIGNED-PAYLOAD`.
 * - `Content-MD5` on every body: a bucket with Object Lock (the audit anchor's) refuses a put
 *   without an integrity header.
 * - Errors are XML `<Error><Code/><Message/></Error>`; CompleteMultipartUpload may answer 200
 *   with an error in its body, which is an error.
 */
import { createHash } from 'node:crypto';
import { createAwsRequester, hostHeader, queryString, uriEncode, type AwsAnswer, type AwsServiceOptions } from './signed-request';

/** An `endpoint` (tests, a local S3) is addressed path-style. */
export type S3ClientOptions = AwsServiceOptions;

export interface S3ObjectHeaders {
  contentType?: string;
  contentDisposition?: string;
}

export interface S3Client {
  /** With `ifNoneMatch`, S3 refuses (412 `PreconditionFailed`) a key that exists. */
  putObject(input: { bucket: string; key: string; body: Buffer | string; ifNoneMatch?: boolean } & S3ObjectHeaders): Promise<void>;
  /** One page of ListObjectsV2: the keys, and the token of the next page while more remain. */
  listObjectKeys(input: { bucket: string; prefix: string; continuationToken?: string }): Promise<{ keys: string[]; nextContinuationToken?: string }>;
  createMultipartUpload(input: { bucket: string; key: string } & S3ObjectHeaders): Promise<string>;
  /** The part's ETag, for the completion. */
  uploadPart(input: { bucket: string; key: string; uploadId: string; partNumber: number; body: Buffer }): Promise<string>;
  completeMultipartUpload(input: { bucket: string; key: string; uploadId: string; parts: { partNumber: number; etag: string }[] }): Promise<void>;
  abortMultipartUpload(input: { bucket: string; key: string; uploadId: string }): Promise<void>;
  /** A GET URL signed for `expiresIn` seconds, answering with the given headers. */
  presignGetObject(input: { bucket: string; key: string; expiresIn: number; responseContentType?: string; responseContentDisposition?: string }): Promise<string>;
}

/** An error answer of S3: `name` is its code (`PreconditionFailed`, `NoSuchKey`, `AccessDenied`…). */
export class S3ResponseError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
  ) {
    super(`S3 ${code} (${status}): ${message}`);
    this.name = code;
  }
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const xmlText = (text: string) =>
  text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, entity: string) =>
    entity.startsWith('#x') ? String.fromCodePoint(parseInt(entity.slice(2), 16)) : entity.startsWith('#') ? String.fromCodePoint(Number(entity.slice(1))) : XML_ENTITIES[entity]!,
  );
const xmlEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const elements = (xml: string, name: string) => [...xml.matchAll(new RegExp(`<${name}>([\\s\\S]*?)</${name}>`, 'g'))].map((m) => xmlText(m[1]!));
const element = (xml: string, name: string) => elements(xml, name)[0];

const md5 = (body: Buffer) => createHash('md5').update(body).digest('base64');
const errorCodeOf = (answer: AwsAnswer) => (answer.status >= 300 ? element(answer.body.toString('utf8'), 'Code') : undefined);

interface S3Request {
  /** The API operation, for the trace. */
  operation: string;
  method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  bucket: string;
  key?: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: Buffer;
}

export function createS3Client(options: S3ClientOptions): S3Client {
  // S3 signs the path as sent (no second encoding) and wants the payload's hash in a header.
  const requester = createAwsRequester('s3', { ...options, uriEscapePath: false, applyChecksum: true });
  const endpoint = requester.endpoint;

  /** The request to sign: where it goes, and its path already encoded as it is sent. */
  const target = ({ bucket, key = '' }: Pick<S3Request, 'bucket' | 'key'>) => {
    const encodedKey = key.split('/').map(uriEncode).join('/');
    if (!endpoint) return { protocol: 'https:', hostname: `${bucket}.s3.${options.region}.amazonaws.com`, port: undefined, path: `/${encodedKey}` };
    const base = endpoint.pathname.replace(/\/$/, '');
    return { protocol: endpoint.protocol, hostname: endpoint.hostname, port: endpoint.port ? Number(endpoint.port) : undefined, path: `${base}/${bucket}${key ? `/${encodedKey}` : ''}` };
  };
  const urlOf = (request: { protocol: string; hostname: string; port?: number; path: string; query: Record<string, string | string[] | null> }) => {
    const query = queryString(request.query);
    return `${request.protocol}//${hostHeader(request.hostname, request.port)}${request.path}${query ? `?${query}` : ''}`;
  };

  const send = async (request: S3Request): Promise<{ headers: AwsAnswer['headers']; text: string }> => {
    const where = target(request);
    const headers: Record<string, string> = { host: hostHeader(where.hostname, where.port), ...request.headers };
    if (request.body) headers['content-md5'] = md5(request.body);
    const answer = await requester.send({ method: request.method, ...where, query: request.query, headers, body: request.body }, errorCodeOf, { service: 'S3', operation: request.operation });
    const text = answer.body.toString('utf8');
    if (answer.status >= 300) throw new S3ResponseError(element(text, 'Code') ?? `Http${answer.status}`, answer.status, element(text, 'Message') ?? `S3 answered ${answer.status}`);
    return { headers: answer.headers, text };
  };

  const objectHeaders = (input: S3ObjectHeaders) => ({
    ...(input.contentType ? { 'content-type': input.contentType } : {}),
    ...(input.contentDisposition ? { 'content-disposition': input.contentDisposition } : {}),
  });

  return {
    async putObject(input) {
      const body = Buffer.isBuffer(input.body) ? input.body : Buffer.from(input.body, 'utf8');
      await send({ operation: 'PutObject', method: 'PUT', bucket: input.bucket, key: input.key, headers: { ...objectHeaders(input), ...(input.ifNoneMatch ? { 'if-none-match': '*' } : {}) }, body });
    },
    async listObjectKeys({ bucket, prefix, continuationToken }) {
      const { text } = await send({ operation: 'ListObjectsV2', method: 'GET', bucket, query: { 'list-type': '2', prefix, ...(continuationToken ? { 'continuation-token': continuationToken } : {}) } });
      const keys = [...text.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)].map((m) => {
        const key = element(m[1]!, 'Key');
        if (key === undefined) throw new S3ResponseError('MalformedResponse', 200, 'a listed object has no key');
        return key;
      });
      const truncated = element(text, 'IsTruncated') === 'true';
      const next = element(text, 'NextContinuationToken');
      if (truncated && !next) throw new S3ResponseError('MalformedResponse', 200, 'a truncated listing has no continuation token');
      return truncated ? { keys, nextContinuationToken: next } : { keys };
    },
    async createMultipartUpload(input) {
      const { text } = await send({ operation: 'CreateMultipartUpload', method: 'POST', bucket: input.bucket, key: input.key, query: { uploads: '' }, headers: objectHeaders(input) });
      const uploadId = element(text, 'UploadId');
      if (!uploadId) throw new S3ResponseError('MalformedResponse', 200, 'CreateMultipartUpload answered no UploadId');
      return uploadId;
    },
    async uploadPart({ bucket, key, uploadId, partNumber, body }) {
      const { headers } = await send({ operation: 'UploadPart', method: 'PUT', bucket, key, query: { partNumber: String(partNumber), uploadId }, body });
      const etag = headers.etag;
      if (!etag) throw new S3ResponseError('MalformedResponse', 200, 'UploadPart answered no ETag');
      return etag;
    },
    async completeMultipartUpload({ bucket, key, uploadId, parts }) {
      const listed = parts.map((p) => `<Part><PartNumber>${p.partNumber}</PartNumber><ETag>${xmlEscape(p.etag)}</ETag></Part>`).join('');
      const body = Buffer.from(`<CompleteMultipartUpload xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${listed}</CompleteMultipartUpload>`, 'utf8');
      const { text } = await send({ operation: 'CompleteMultipartUpload', method: 'POST', bucket, key, query: { uploadId }, headers: { 'content-type': 'application/xml' }, body });
      // S3 may fail the completion after it has begun answering 200: the error is then the body.
      if (/<Error>/.test(text)) throw new S3ResponseError(element(text, 'Code') ?? 'InternalError', 200, element(text, 'Message') ?? 'CompleteMultipartUpload failed');
    },
    async abortMultipartUpload({ bucket, key, uploadId }) {
      await send({ operation: 'AbortMultipartUpload', method: 'DELETE', bucket, key, query: { uploadId } });
    },
    async presignGetObject({ bucket, key, expiresIn, responseContentType, responseContentDisposition }) {
      const where = target({ bucket, key });
      const query: Record<string, string> = {
        ...(responseContentType ? { 'response-content-type': responseContentType } : {}),
        ...(responseContentDisposition ? { 'response-content-disposition': responseContentDisposition } : {}),
      };
      const host = hostHeader(where.hostname, where.port);
      const presigned = await requester.signer.presign({ method: 'GET', ...where, query, headers: { host, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' } }, { expiresIn });
      return urlOf({ ...where, query: presigned.query ?? {} });
    },
  };
}
