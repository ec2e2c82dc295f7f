/**
 * Tessera's AWS JSON-protocol client (shared/aws/aws-json-client.ts on signed-request.ts)
 * against a loopback server that checks every request the way AWS does (SigV4 verified with
 * the caller's secret, for the service and region) and answers as DynamoDB's API reference
 * says: the target header, JSON in and out, errors by `__type`, throttling answered 400
 * `ProvisionedThroughputExceededException`, an `x-amz-crc32` of each answer's body.
 */
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalReply, type LocalRequest, type LocalServer } from '../../infra/local/stand-ins/local-server';
import { AwsServiceError, createAwsJsonClient, type AwsJsonClient } from '../../shared/aws/aws-json-client';
import { authenticationFailure, TEST_CREDENTIALS, TEST_REGION } from '../support/aws-wire/caller';

let server: LocalServer;
let client: AwsJsonClient;
const seen: LocalRequest[] = [];
let replies: LocalReply[] = [];

const json = (status: number, body: unknown, headers: Record<string, string> = {}): LocalReply => {
  const text = JSON.stringify(body);
  return { status, headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-crc32': String(crc32(text)), ...headers }, body: text };
};

beforeAll(async () => {
  server = await startLocalServer((request) => {
    seen.push(request);
    const failure = authenticationFailure(request, 'dynamodb', TEST_REGION);
    if (failure) return json(400, { __type: `com.amazon.coral.service#${failure.type}`, message: failure.message });
    return replies.shift() ?? json(500, { __type: 'InternalServerError', message: 'no reply queued' });
  });
  client = createAwsJsonClient(
    { service: 'dynamodb', tracedName: 'DynamoDB', targetPrefix: 'DynamoDB_20120810', jsonVersion: '1.0', checkCrc32: true },
    { region: TEST_REGION, endpoint: server.url, credentials: () => Promise.resolve({ ...TEST_CREDENTIALS }) },
  );
});

afterAll(async () => {
  client?.destroy();
  await server?.close();
});

beforeEach(() => {
  seen.length = 0;
  replies = [];
});

describe('the AWS JSON client', () => {
  it('sends the operation as the target with a signed JSON body, blobs as base64, and answers the output', async () => {
    replies = [json(200, { Item: { PK: { S: 'a' }, data: { B: 'AQID' } } })];
    const out = await client.call('GetItem', { TableName: 't', Key: { PK: { S: 'a' } }, Probe: { B: new Uint8Array([1, 2, 3]) }, Buffer: Buffer.from([4, 5]) });
    expect(out).toEqual({ Item: { PK: { S: 'a' }, data: { B: 'AQID' } } });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers['x-amz-target']).toBe('DynamoDB_20120810.GetItem');
    expect(seen[0]!.headers['content-type']).toBe('application/x-amz-json-1.0');
    expect(JSON.parse(seen[0]!.body)).toEqual({ TableName: 't', Key: { PK: { S: 'a' } }, Probe: { B: 'AQID' }, Buffer: 'BAU=' });
  });

  it('throws an answer error by its exception name, message and members', async () => {
    replies = [json(400, { __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException', Message: 'Transaction cancelled', CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }] })];
    const error = await client.call('TransactWriteItems', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AwsServiceError);
    expect(error).toMatchObject({ name: 'TransactionCanceledException', message: 'Transaction cancelled', status: 400, CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }] });
    expect(seen).toHaveLength(1);
  });

  it('retries throttling and 5xx answers up to three attempts, and then gives the last error', async () => {
    replies = [json(400, { __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException', message: 'slow down' }), json(503, { __type: 'ServiceUnavailable', message: 'busy' }), json(200, { Count: 0 })];
    expect(await client.call('Query', {})).toEqual({ Count: 0 });
    expect(seen).toHaveLength(3);

    seen.length = 0;
    replies = [0, 1, 2, 3].map(() => json(400, { __type: 'com.amazonaws.dynamodb.v20120810#ThrottlingException', message: 'slow down' }));
    await expect(client.call('Query', {})).rejects.toMatchObject({ name: 'ThrottlingException' });
    expect(seen).toHaveLength(3);
  });

  it('does not retry a client error, and refuses a wrong signature before anything else', async () => {
    replies = [json(400, { __type: 'com.amazon.coral.validate#ValidationException', message: 'bad key' }), json(200, {})];
    await expect(client.call('GetItem', {})).rejects.toMatchObject({ name: 'ValidationException', message: 'bad key' });
    expect(seen).toHaveLength(1);

    const wrongSecret = createAwsJsonClient({ service: 'dynamodb', tracedName: 'DynamoDB', targetPrefix: 'DynamoDB_20120810', jsonVersion: '1.0' }, { region: TEST_REGION, endpoint: server.url, credentials: () => Promise.resolve({ ...TEST_CREDENTIALS, secretAccessKey: 'wrong' }) });
    await expect(wrongSecret.call('GetItem', {})).rejects.toMatchObject({ name: 'InvalidSignatureException' });
    wrongSecret.destroy();
  });

  it('retries an answer whose body fails its CRC32, as a transient failure', async () => {
    const damaged = json(200, { Item: { PK: { S: 'a' } } });
    damaged.headers = { ...damaged.headers, 'x-amz-crc32': String(crc32('something else')) };
    replies = [damaged, json(200, { Item: { PK: { S: 'b' } } })];
    expect(await client.call('GetItem', {})).toEqual({ Item: { PK: { S: 'b' } } });
    expect(seen).toHaveLength(2);
  });
});
