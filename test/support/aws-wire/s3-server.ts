/**
 * A local Amazon S3 for the audit anchor (shared/audit/s3-audit-anchor.ts), over S3's REST-XML
 * protocol with path-style addressing (what the SDK uses for an endpoint that is an IP address),
 * SigV4 with service `s3`.
 *
 * What it reproduces of the S3 API reference:
 * - PutObject (`PUT /<bucket>/<key>`): 200 with an `ETag`; with `If-None-Match: *` ("conditional
 *   writes") an existing key is 412 `PreconditionFailed` and the object is left as it was.
 * - ListObjectsV2 (`GET /<bucket>?list-type=2&prefix=&continuation-token=&max-keys=`): keys in
 *   UTF-8 binary order, at most `max-keys` (default 1000) a page, `IsTruncated` and
 *   `NextContinuationToken` while more remain.
 * - A bucket that does not exist is 404 `NoSuchBucket`; an unsigned or wrongly signed request is
 *   403 (`AccessDenied`, `SignatureDoesNotMatch`); a caller whose policy does not allow the
 *   action on the object's or bucket's ARN is 403 `AccessDenied`. No delete is offered: the
 *   bucket stands for one under Object Lock in compliance mode.
 */
import { createHash } from 'node:crypto';
import { startLocalServer, type LocalReply } from '../../../infra/local/stand-ins/local-server';
import { CALLER_ARN, authenticationFailure, TEST_REGION } from './caller';
import { ALLOW_ALL, isAllowed, type IamStatement } from './iam-policy';

export interface S3Server {
  /** For `AWS_ENDPOINT_URL_S3`. */
  endpoint: string;
  policy: IamStatement[];
  createBucket(name: string): void;
  /** The bucket's objects, key → body. */
  objects(bucket: string): Map<string, string>;
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
  const server: S3Server = {
    endpoint: '',
    policy: ALLOW_ALL,
    createBucket: (name) => void buckets.set(name, new Map()),
    objects: (bucket) => buckets.get(bucket) ?? new Map(),
    close: () => Promise.resolve(),
  };
  const local = await startLocalServer((request) => {
    const failure = authenticationFailure(request, 's3', region);
    if (failure) return error(403, failure.type === 'InvalidSignatureException' ? 'SignatureDoesNotMatch' : 'AccessDenied', failure.message);
    const [, bucketName = '', ...keyParts] = request.url.pathname.split('/');
    const key = decodeURIComponent(keyParts.join('/'));
    const bucket = buckets.get(bucketName);
    if (request.method === 'PUT' && key) {
      if (!isAllowed(server.policy, 's3:PutObject', `arn:aws:s3:::${bucketName}/${key}`)) return error(403, 'AccessDenied', `User: ${CALLER_ARN} is not authorized to perform: s3:PutObject`);
      if (!bucket) return error(404, 'NoSuchBucket', 'The specified bucket does not exist');
      if (request.headers['if-none-match'] === '*' && bucket.has(key)) return error(412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold');
      bucket.set(key, request.body);
      return { status: 200, headers: { etag: `"${createHash('md5').update(request.body).digest('hex')}"` } };
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
