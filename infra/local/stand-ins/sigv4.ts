/**
 * Verification of an AWS Signature Version 4 `Authorization` header, as AWS does it: the fake
 * recomputes the signature with the secret it knows for the access key id, so a wrong secret
 * is caught exactly like at AWS (SignatureDoesNotMatch), not only a wrong key id.
 */
import { createHash, createHmac } from 'node:crypto';
import type { LocalRequest } from './local-server';

export interface SignedBy {
  accessKeyId: string;
  region: string;
  service: string;
  /** Checks the signature against the secret of `accessKeyId`. */
  verify(secretAccessKey: string): boolean;
}

const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/;

export function parseSigV4(request: LocalRequest): SignedBy | undefined {
  const header = request.headers.authorization;
  const match = header ? AUTHORIZATION.exec(header) : null;
  if (!match) return undefined;
  const [, accessKeyId = '', date = '', region = '', service = '', signedHeaders = '', signature = ''] = match;
  return {
    accessKeyId,
    region,
    service,
    verify(secretAccessKey) {
      const amzDate = headerValue(request, 'x-amz-date');
      const canonical = [
        request.method,
        request.url.pathname,
        canonicalQuery(request.url.searchParams),
        ...signedHeaders.split(';').map((name) => `${name}:${headerValue(request, name).trim().replace(/\s+/g, ' ')}`),
        '',
        signedHeaders,
        headerValue(request, 'x-amz-content-sha256') || sha256(request.body),
      ].join('\n');
      const stringToSign = ['AWS4-HMAC-SHA256', amzDate, `${date}/${region}/${service}/aws4_request`, sha256(canonical)].join('\n');
      let key: Buffer = hmac(`AWS4${secretAccessKey}`, date);
      for (const part of [region, service, 'aws4_request']) key = hmac(key, part);
      return hmac(key, stringToSign).toString('hex') === signature;
    },
  };
}

function headerValue(request: LocalRequest, name: string): string {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : (value ?? '');
}

function canonicalQuery(params: URLSearchParams): string {
  const encode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return [...params.entries()]
    .map(([k, v]) => `${encode(k)}=${encode(v)}`)
    .sort()
    .join('&');
}

const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

export interface PresignedBy extends SignedBy {
  /** The URL's validity ended before `now` (X-Amz-Date + X-Amz-Expires). */
  expiredAt(now: Date): boolean;
}

/**
 * A presigned URL's signature ("Authenticating Requests: Using Query Parameters (AWS Signature
 * Version 4)", Amazon S3 API reference): the credential, date, lifetime and signed headers are
 * query parameters, the payload is `UNSIGNED-PAYLOAD`, and the canonical query is every
 * parameter but `X-Amz-Signature`.
 */
export function parsePresignedSigV4(request: LocalRequest): PresignedBy | undefined {
  const query = request.url.searchParams;
  if (query.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') return undefined;
  const credential = /^([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request$/.exec(query.get('X-Amz-Credential') ?? '');
  const amzDate = query.get('X-Amz-Date') ?? '';
  const expires = Number(query.get('X-Amz-Expires'));
  const signedHeaders = query.get('X-Amz-SignedHeaders') ?? '';
  const signature = query.get('X-Amz-Signature') ?? '';
  if (!credential || !/^\d{8}T\d{6}Z$/.test(amzDate) || !Number.isInteger(expires) || !signedHeaders || !/^[0-9a-f]{64}$/.test(signature)) return undefined;
  const [, accessKeyId = '', date = '', region = '', service = ''] = credential;
  const unsigned = new URLSearchParams([...query.entries()].filter(([name]) => name !== 'X-Amz-Signature'));
  return {
    accessKeyId,
    region,
    service,
    expiredAt(now) {
      const signedAt = Date.parse(`${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`);
      return now.getTime() > signedAt + expires * 1000;
    },
    verify(secretAccessKey) {
      const canonical = [
        request.method,
        request.url.pathname,
        canonicalQuery(unsigned),
        ...signedHeaders.split(';').map((name) => `${name}:${headerValue(request, name).trim().replace(/\s+/g, ' ')}`),
        '',
        signedHeaders,
        'UNSIGNED-PAYLOAD',
      ].join('\n');
      const stringToSign = ['AWS4-HMAC-SHA256', amzDate, `${date}/${region}/${service}/aws4_request`, sha256(canonical)].join('\n');
      let key: Buffer = hmac(`AWS4${secretAccessKey}`, date);
      for (const part of [region, service, 'aws4_request']) key = hmac(key, part);
      return hmac(key, stringToSign).toString('hex') === signature;
    },
  };
}
