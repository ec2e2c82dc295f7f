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
