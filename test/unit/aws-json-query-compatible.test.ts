/**
 * The AWS JSON client for a query-compatible service (SQS since it left the Query protocol),
 * against a loopback server that verifies each request's SigV4 signature for `sqs`: the client
 * asks for the Query error codes (`x-amzn-query-mode: true`) and names errors as the SDK's SQS
 * client does: a modeled exception (`__type` in `com.amazonaws.sqs`) by its name, any other by
 * the code of `x-amzn-query-error` (AccessDenied for coral's AccessDeniedException). A service
 * that is not query-compatible reads `__type` only.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalReply, type LocalRequest, type LocalServer } from '../../infra/local/stand-ins/local-server';
import { createAwsJsonClient, type AwsJsonClient } from '../../shared/aws/aws-json-client';
import { authenticationFailure, TEST_CREDENTIALS, TEST_REGION } from '../support/aws-wire/caller';

let server: LocalServer;
let sqs: AwsJsonClient;
let plain: AwsJsonClient;
const seen: LocalRequest[] = [];
let replies: LocalReply[] = [];

const error = (status: number, type: string, queryError?: string): LocalReply => ({
  status,
  headers: { 'content-type': 'application/x-amz-json-1.0', ...(queryError ? { 'x-amzn-query-error': queryError } : {}) },
  body: JSON.stringify({ __type: type, message: `${type} happened` }),
});

beforeAll(async () => {
  server = await startLocalServer((request) => {
    seen.push(request);
    const failure = authenticationFailure(request, 'sqs', TEST_REGION);
    if (failure) return error(400, `com.amazon.coral.service#${failure.type}`);
    return replies.shift() ?? error(500, 'InternalError');
  });
  const options = { region: TEST_REGION, endpoint: server.url, credentials: () => Promise.resolve({ ...TEST_CREDENTIALS }) };
  sqs = createAwsJsonClient({ service: 'sqs', tracedName: 'SQS', targetPrefix: 'AmazonSQS', jsonVersion: '1.0', queryCompatibleNamespace: 'com.amazonaws.sqs' }, options);
  plain = createAwsJsonClient({ service: 'sqs', tracedName: 'SQS', targetPrefix: 'AmazonSQS', jsonVersion: '1.0' }, options);
});

afterAll(async () => {
  sqs?.destroy();
  plain?.destroy();
  await server?.close();
});

beforeEach(() => {
  seen.length = 0;
  replies = [];
});

describe('a query-compatible JSON service', () => {
  it('asks for the Query error codes', async () => {
    replies = [{ status: 200, headers: { 'content-type': 'application/x-amz-json-1.0' }, body: '{"MessageId":"m"}' }];
    await expect(sqs.call('SendMessage', { QueueUrl: 'q', MessageBody: 'b' })).resolves.toEqual({ MessageId: 'm' });
    expect(seen[0]!.headers['x-amzn-query-mode']).toBe('true');
  });

  it('names a modeled exception by its name and any other by its Query code', async () => {
    replies = [
      error(400, 'com.amazonaws.sqs#QueueDoesNotExist', 'AWS.SimpleQueueService.NonExistentQueue;Sender'),
      error(400, 'com.amazon.coral.service#AccessDeniedException', 'AccessDenied;Sender'),
      // Without the header (an older endpoint): the __type's name.
      error(400, 'com.amazon.coral.service#AccessDeniedException'),
    ];
    await expect(sqs.call('SendMessage', {})).rejects.toMatchObject({ name: 'QueueDoesNotExist', status: 400 });
    await expect(sqs.call('SendMessage', {})).rejects.toMatchObject({ name: 'AccessDenied', message: 'com.amazon.coral.service#AccessDeniedException happened' });
    await expect(sqs.call('SendMessage', {})).rejects.toMatchObject({ name: 'AccessDeniedException' });
  });

  it('is not asked of a service that is not query-compatible, which names errors by __type', async () => {
    replies = [error(400, 'com.amazon.coral.service#AccessDeniedException', 'AccessDenied;Sender')];
    await expect(plain.call('SendMessage', {})).rejects.toMatchObject({ name: 'AccessDeniedException' });
    expect(seen[0]!.headers['x-amzn-query-mode']).toBeUndefined();
  });
});
