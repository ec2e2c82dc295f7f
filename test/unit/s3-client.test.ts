/**
 * Tessera's S3 client (shared/aws/s3-client.ts) against the local S3 of the aws-wire servers,
 * which verifies every SigV4 signature (header and presigned) with the caller's secret: keys
 * that need encoding, conditional puts, Object Lock's integrity header, listings past one page,
 * multipart uploads, presigned reads and their expiry, and S3's errors by code.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createS3Client, S3ResponseError, type S3Client } from '../../shared/aws/s3-client';
import { TEST_CREDENTIALS, TEST_REGION } from '../support/aws-wire/caller';
import { ALLOW_ALL } from '../support/aws-wire/iam-policy';
import { startS3Server, type S3Server } from '../support/aws-wire/s3-server';

const credentials = () => Promise.resolve({ ...TEST_CREDENTIALS });
let server: S3Server;
let s3: S3Client;

beforeAll(async () => {
  server = await startS3Server();
  server.createBucket('plain-bucket');
  server.createBucket('locked-bucket', { objectLock: true });
  s3 = createS3Client({ region: TEST_REGION, endpoint: server.endpoint, credentials });
});

afterAll(async () => {
  await server?.close();
  vi.useRealTimers();
});

const failure = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(S3ResponseError);
  return error as S3ResponseError;
};

describe('the S3 client', () => {
  it('puts an object whose key needs encoding, with its headers, signed so the server verifies it', async () => {
    const key = 'chain/tenant a+b/é (1)*.json';
    await s3.putObject({ bucket: 'plain-bucket', key, body: '{"seq":1}', contentType: 'application/json', contentDisposition: 'attachment; filename="a.json"' });
    expect(server.objects('plain-bucket').get(key)).toBe('{"seq":1}');
    expect(server.objectHeaders('plain-bucket', key)).toEqual({ 'content-type': 'application/json', 'content-disposition': 'attachment; filename="a.json"' });
  });

  it('sends the Content-MD5 an Object Lock bucket requires, and a conditional put of an existing key is 412 PreconditionFailed', async () => {
    await s3.putObject({ bucket: 'locked-bucket', key: 'heads/000000000001', body: 'first', ifNoneMatch: true });
    const again = await failure(s3.putObject({ bucket: 'locked-bucket', key: 'heads/000000000001', body: 'second', ifNoneMatch: true }));
    expect([again.status, again.code]).toEqual([412, 'PreconditionFailed']);
    expect(server.objects('locked-bucket').get('heads/000000000001')).toBe('first');
  });

  it('lists keys past one page with the continuation token, in order', async () => {
    const objects = server.objects('plain-bucket');
    for (let i = 0; i < 1_005; i++) objects.set(`many/${String(i).padStart(5, '0')}`, '');
    objects.set('other/0', '');
    const first = await s3.listObjectKeys({ bucket: 'plain-bucket', prefix: 'many/' });
    expect(first.keys).toHaveLength(1_000);
    expect(first.nextContinuationToken).toBeTruthy();
    const second = await s3.listObjectKeys({ bucket: 'plain-bucket', prefix: 'many/', continuationToken: first.nextContinuationToken });
    expect(second).toEqual({ keys: ['many/01000', 'many/01001', 'many/01002', 'many/01003', 'many/01004'] });
  });

  it('uploads in parts and completes, or aborts leaving no upload', async () => {
    const part = 'a'.repeat(5 * 1024 * 1024);
    const uploadId = await s3.createMultipartUpload({ bucket: 'plain-bucket', key: 'big/file.csv', contentType: 'text/csv' });
    const etags = [await s3.uploadPart({ bucket: 'plain-bucket', key: 'big/file.csv', uploadId, partNumber: 1, body: Buffer.from(part) })];
    etags.push(await s3.uploadPart({ bucket: 'plain-bucket', key: 'big/file.csv', uploadId, partNumber: 2, body: Buffer.from('tail') }));
    await s3.completeMultipartUpload({ bucket: 'plain-bucket', key: 'big/file.csv', uploadId, parts: etags.map((etag, i) => ({ partNumber: i + 1, etag })) });
    expect(server.objects('plain-bucket').get('big/file.csv')).toBe(`${part}tail`);
    expect(server.objectHeaders('plain-bucket', 'big/file.csv')).toEqual({ 'content-type': 'text/csv' });

    const wrong = await s3.createMultipartUpload({ bucket: 'plain-bucket', key: 'big/wrong.csv' });
    await s3.uploadPart({ bucket: 'plain-bucket', key: 'big/wrong.csv', uploadId: wrong, partNumber: 1, body: Buffer.from('x') });
    const invalid = await failure(s3.completeMultipartUpload({ bucket: 'plain-bucket', key: 'big/wrong.csv', uploadId: wrong, parts: [{ partNumber: 1, etag: '"not-the-etag"' }] }));
    expect(invalid.code).toBe('InvalidPart');
    await s3.abortMultipartUpload({ bucket: 'plain-bucket', key: 'big/wrong.csv', uploadId: wrong });
    expect(server.openUploads).toBe(0);
  });

  it('presigns a GET that answers the asked headers until it expires', async () => {
    await s3.putObject({ bucket: 'plain-bucket', key: 'exports/t/w/e.csv', body: 'a,b\r\n' });
    const url = await s3.presignGetObject({ bucket: 'plain-bucket', key: 'exports/t/w/e.csv', expiresIn: 300, responseContentType: 'text/csv; charset=utf-8', responseContentDisposition: 'attachment; filename="people.csv"' });
    expect(url).toContain('X-Amz-Expires=300');
    expect(url).not.toContain(TEST_CREDENTIALS.secretAccessKey);
    const answer = await fetch(url);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('a,b\r\n');
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="people.csv"');

    // A URL whose signature was made for other parameters does not verify.
    expect((await fetch(url.replace('people.csv', 'other.csv'))).status).toBe(403);
    vi.useFakeTimers({ now: Date.now() + 301_000, toFake: ['Date'] });
    try {
      expect((await fetch(url)).status).toBe(403);
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers S3 errors by code: a missing bucket, a wrong secret, a denied action', async () => {
    const missing = await failure(s3.putObject({ bucket: 'no-such-bucket', key: 'k', body: 'x' }));
    expect([missing.status, missing.code]).toEqual([404, 'NoSuchBucket']);

    const wrongSecret = createS3Client({ region: TEST_REGION, endpoint: server.endpoint, credentials: () => Promise.resolve({ ...TEST_CREDENTIALS, secretAccessKey: 'not-the-secret' }) });
    const unsigned = await failure(wrongSecret.putObject({ bucket: 'plain-bucket', key: 'k', body: 'x' }));
    expect([unsigned.status, unsigned.code]).toEqual([403, 'SignatureDoesNotMatch']);

    const otherRegion = createS3Client({ region: 'us-west-2', endpoint: server.endpoint, credentials });
    expect((await failure(otherRegion.listObjectKeys({ bucket: 'plain-bucket', prefix: '' }))).code).toBe('SignatureDoesNotMatch');

    server.policy = [{ Effect: 'Allow', Action: ['s3:PutObject'], Resource: 'arn:aws:s3:::plain-bucket/*' }];
    try {
      const denied = await failure(s3.listObjectKeys({ bucket: 'plain-bucket', prefix: '' }));
      expect([denied.status, denied.code]).toEqual([403, 'AccessDenied']);
    } finally {
      server.policy = ALLOW_ALL;
    }
  });
});
