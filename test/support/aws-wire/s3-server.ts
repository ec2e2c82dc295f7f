/**
 * A local Amazon S3 for the audit anchor (shared/audit/s3-audit-anchor.ts) and the export files
 * (shared/exports/export-files.ts), over S3's REST-XML
 * protocol with path-style addressing (what the SDK uses for an endpoint that is an IP address),
 * SigV4 with service `s3`.
 *
 * What it reproduces of the S3 API reference:
 * - PutObject (`PUT /<bucket>/<key>`): 200 with an `ETag`; with `If-None-Match: *` ("conditional
 *   writes") an existing key is 412 `PreconditionFailed` and the object is left as it was. A
 *   `Content-MD5` that is not the body's is 400 `BadDigest`; a bucket made with Object Lock (the
 *   audit anchor's) refuses a put without one (400 `InvalidRequest`: "Content-MD5 OR
 *   x-amz-checksum- HTTP header is required for Put Object requests with Object Lock parameters").
 * - ListObjectsV2 (`GET /<bucket>?list-type=2&prefix=&continuation-token=&max-keys=`): keys in
 *   UTF-8 binary order, at most `max-keys` (default 1000) a page, `IsTruncated` and
 *   `NextContinuationToken` while more remain.
 * - Multipart uploads (the exports' writer): CreateMultipartUpload (`POST /<bucket>/<key>?uploads`,
 *   keeping the object's Content-Type and Content-Disposition), UploadPart (`PUT …?partNumber=&uploadId=`,
 *   answering the part's `ETag`), CompleteMultipartUpload (`POST …?uploadId=` with the parts'
 *   numbers and ETags: `InvalidPart` for one that was not uploaded, `EntityTooSmall` for a part
 *   but the last under 5 MiB, or under `minPartBytes` where a test lowered it as moto's
 *   `S3_UPLOAD_PART_MIN_SIZE` does), AbortMultipartUpload (`DELETE …?uploadId=`, 204); an unknown
 *   upload is 404 `NoSuchUpload`. To IAM they are all `s3:PutObject` but the abort,
 *   `s3:AbortMultipartUpload` ("Actions, resources, and condition keys for Amazon S3").
 * - GetObject (`GET /<bucket>/<key>`), signed in the header or presigned in the query
 *   (`X-Amz-Expires`; past it, 403 "Request has expired"): the body with the Content-Type and
 *   Content-Disposition it was stored with, or those the `response-content-type` and
 *   `response-content-disposition` parameters of the request ask for; a missing key is 404 `NoSuchKey`.
 * - A bucket that does not exist is 404 `NoSuchBucket`; an unsigned or wrongly signed request is
 *   403 (`AccessDenied`, `SignatureDoesNotMatch`); a caller whose policy does not allow the
 *   action on the object's or bucket's ARN is 403 `AccessDenied`. No object delete is offered:
 *   the anchor bucket stands for one under Object Lock in compliance mode.
 */
import { createHash } from 'node:crypto';
import { startLocalServer, type LocalReply } from '../../../infra/local/stand-ins/local-server';
import { CALLER_ARN, authenticationFailure, TEST_REGION } from './caller';
import { ALLOW_ALL, isAllowed, type IamStatement } from './iam-policy';

export interface S3Server {
  /** For `AWS_ENDPOINT_URL_S3`. */
  endpoint: string;
  policy: IamStatement[];
  createBucket(name: string, options?: { objectLock?: boolean }): void;
  /** The bucket's objects, key → body. */
  objects(bucket: string): Map<string, string>;
  /** The headers an object was stored with (content-type, content-disposition). */
  objectHeaders(bucket: string, key: string): Record<string, string> | undefined;
  /** Multipart uploads begun and neither completed nor aborted. */
  readonly openUploads: number;
  /** The smallest part but the last a completion accepts: S3's 5 MiB unless a test lowers it. */
  minPartBytes: number;
  /** How many parts an object was completed from (undefined: it was put whole). */
  partsOf(bucket: string, key: string): number | undefined;
  close(): Promise<void>;
}

const xml = (status: number, body: string, headers: Record<string, string> = {}): LocalReply => ({
  status,
  headers: { 'content-type': 'application/xml', ...headers },
  body: `<?xml version="1.0" encoding="UTF-8"?>\n${body}`,
});

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const error = (status: number, code: string, message: string) => xml(status, `<Error><Code>${code}</Code><Message>${escape(message)}</Message><RequestId>tessera-wire</RequestId></Error>`);

export async function startS3Server(region = TEST_REGION): Promise<S3Server> {
  const buckets = new Map<string, Map<string, string>>();
  const lockedBuckets = new Set<string>();
  const headersOf = new Map<string, Record<string, string>>();
  const partCounts = new Map<string, number>();
  const uploads = new Map<string, { bucket: string; key: string; headers: Record<string, string>; parts: Map<number, { etag: string; body: string }> }>();
  const server: S3Server = {
    endpoint: '',
    policy: ALLOW_ALL,
    createBucket: (name, options = {}) => {
      buckets.set(name, new Map());
      if (options.objectLock) lockedBuckets.add(name);
    },
    objects: (bucket) => buckets.get(bucket) ?? new Map(),
    objectHeaders: (bucket, key) => headersOf.get(`${bucket}/${key}`),
    get openUploads() {
      return uploads.size;
    },
    minPartBytes: 5 * 1024 * 1024,
    partsOf: (bucket, key) => partCounts.get(`${bucket}/${key}`),
    close: () => Promise.resolve(),
  };
  const storedHeaders = (request: { headers: Record<string, string | string[] | undefined> }) => {
    const kept: Record<string, string> = {};
    for (const name of ['content-type', 'content-disposition']) {
      const value = request.headers[name];
      if (typeof value === 'string') kept[name] = value;
    }
    return kept;
  };
  const etagOf = (body: string) => `"${createHash('md5').update(body).digest('hex')}"`;
  const denied = (action: string) => error(403, 'AccessDenied', `User: ${CALLER_ARN} is not authorized to perform: ${action}`);
  /** The request's Content-MD5 does not match its body: S3 refuses the upload. */
  const badDigest = (request: { headers: Record<string, string | string[] | undefined>; body: string }) => {
    const sent = request.headers['content-md5'];
    return typeof sent === 'string' && sent !== createHash('md5').update(request.body).digest('base64');
  };
  const local = await startLocalServer((request) => {
    const failure = authenticationFailure(request, 's3', region);
    if (failure) return error(403, failure.type === 'InvalidSignatureException' ? 'SignatureDoesNotMatch' : 'AccessDenied', failure.message);
    const [, bucketName = '', ...keyParts] = request.url.pathname.split('/');
    const key = decodeURIComponent(keyParts.join('/'));
    const bucket = buckets.get(bucketName);
    const objectArn = `arn:aws:s3:::${bucketName}/${key}`;
    const query = request.url.searchParams;
    const uploadId = query.get('uploadId');
    if (key && (query.has('uploads') || uploadId !== null)) {
      const action = request.method === 'DELETE' ? 's3:AbortMultipartUpload' : 's3:PutObject';
      if (!isAllowed(server.policy, action, objectArn)) return denied(action);
      if (!bucket) return error(404, 'NoSuchBucket', 'The specified bucket does not exist');
      if (request.method === 'POST' && query.has('uploads')) {
        const id = createHash('sha256').update(`${bucketName}/${key}/${uploads.size}/${Math.random()}`).digest('hex');
        uploads.set(id, { bucket: bucketName, key, headers: storedHeaders(request), parts: new Map() });
        return xml(200, `<InitiateMultipartUploadResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${escape(bucketName)}</Bucket><Key>${escape(key)}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`);
      }
      const upload = uploads.get(uploadId ?? '');
      if (!upload || upload.bucket !== bucketName || upload.key !== key) return error(404, 'NoSuchUpload', 'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.');
      if (request.method === 'PUT') {
        if (badDigest(request)) return error(400, 'BadDigest', 'The Content-MD5 you specified did not match what we received.');
        const partNumber = Number(query.get('partNumber'));
        if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10_000) return error(400, 'InvalidArgument', 'Part number must be an integer between 1 and 10000, inclusive');
        upload.parts.set(partNumber, { etag: etagOf(request.body), body: request.body });
        return { status: 200, headers: { etag: etagOf(request.body) } };
      }
      if (request.method === 'DELETE') {
        uploads.delete(uploadId!);
        return { status: 204 };
      }
      if (request.method === 'POST') {
        const listed = [...request.body.matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map((m) => ({ number: Number(/<PartNumber>(\d+)<\/PartNumber>/.exec(m[1]!)?.[1]), etag: /<ETag>([^<]*)<\/ETag>/.exec(m[1]!)?.[1]?.replaceAll('&quot;', '"') }));
        if (listed.length === 0) return error(400, 'MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema');
        const bodies: string[] = [];
        for (const [index, part] of listed.entries()) {
          const stored = upload.parts.get(part.number);
          if (!stored || stored.etag !== part.etag) return error(400, 'InvalidPart', 'One or more of the specified parts could not be found.');
          if (index < listed.length - 1 && Buffer.byteLength(stored.body) < server.minPartBytes) return error(400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed object size.');
          bodies.push(stored.body);
        }
        const body = bodies.join('');
        bucket.set(key, body);
        headersOf.set(`${bucketName}/${key}`, upload.headers);
        partCounts.set(`${bucketName}/${key}`, listed.length);
        uploads.delete(uploadId!);
        return xml(200, `<CompleteMultipartUploadResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${escape(bucketName)}</Bucket><Key>${escape(key)}</Key><ETag>${escape(etagOf(body))}</ETag></CompleteMultipartUploadResult>`);
      }
    }
    if (request.method === 'PUT' && key) {
      if (!isAllowed(server.policy, 's3:PutObject', objectArn)) return denied('s3:PutObject');
      if (!bucket) return error(404, 'NoSuchBucket', 'The specified bucket does not exist');
      if (badDigest(request)) return error(400, 'BadDigest', 'The Content-MD5 you specified did not match what we received.');
      if (lockedBuckets.has(bucketName) && request.headers['content-md5'] === undefined && !Object.keys(request.headers).some((h) => h.startsWith('x-amz-checksum-'))) {
        return error(400, 'InvalidRequest', 'Content-MD5 OR x-amz-checksum- HTTP header is required for Put Object requests with Object Lock parameters');
      }
      if (request.headers['if-none-match'] === '*' && bucket.has(key)) return error(412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold');
      bucket.set(key, request.body);
      headersOf.set(`${bucketName}/${key}`, storedHeaders(request));
      partCounts.delete(`${bucketName}/${key}`);
      return { status: 200, headers: { etag: etagOf(request.body) } };
    }
    if (request.method === 'GET' && key) {
      if (!isAllowed(server.policy, 's3:GetObject', objectArn)) return denied('s3:GetObject');
      if (!bucket) return error(404, 'NoSuchBucket', 'The specified bucket does not exist');
      const body = bucket.get(key);
      if (body === undefined) return error(404, 'NoSuchKey', 'The specified key does not exist.');
      const stored = headersOf.get(`${bucketName}/${key}`) ?? {};
      const asked = { 'content-type': query.get('response-content-type'), 'content-disposition': query.get('response-content-disposition') };
      const headers: Record<string, string> = { etag: etagOf(body), 'content-type': asked['content-type'] ?? stored['content-type'] ?? 'binary/octet-stream' };
      const disposition = asked['content-disposition'] ?? stored['content-disposition'];
      if (disposition) headers['content-disposition'] = disposition;
      return { status: 200, headers, body };
    }
    if (request.method === 'GET' && !key && request.url.searchParams.get('list-type') === '2') {
      if (!isAllowed(server.policy, 's3:ListBucket', `arn:aws:s3:::${bucketName}`)) return error(403, 'AccessDenied', `User: ${CALLER_ARN} is not authorized to perform: s3:ListBucket`);
      if (!bucket) return error(404, 'NoSuchBucket', 'The specified bucket does not exist');
      const prefix = request.url.searchParams.get('prefix') ?? '';
      const after = request.url.searchParams.get('continuation-token') ?? '';
      const maxKeys = Number(request.url.searchParams.get('max-keys') ?? 1000);
      const matching = [...bucket.keys()].filter((k) => k.startsWith(prefix) && k > after).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
      const page = matching.slice(0, maxKeys);
      const truncated = matching.length > page.length;
      const contents = page.map((k) => `<Contents><Key>${escape(k)}</Key><Size>${bucket.get(k)!.length}</Size></Contents>`).join('');
      return xml(200, `<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${escape(bucketName)}</Name><Prefix>${escape(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${maxKeys}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${truncated ? `<NextContinuationToken>${escape(page.at(-1)!)}</NextContinuationToken>` : ''}${contents}</ListBucketResult>`);
    }
    return error(405, 'MethodNotAllowed', `${request.method} ${request.url.pathname} is not reproduced here`);
  });
  server.endpoint = local.url;
  server.close = () => local.close();
  return server;
}
