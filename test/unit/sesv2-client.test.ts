/**
 * Tessera's SES v2 client (shared/aws/sesv2-client.ts) against a loopback server that verifies
 * each request's SigV4 signature for the signing name `ses` (SES v2's, not its service id) and
 * answers as SES's REST-JSON protocol does: the output as JSON, an error as its status with the
 * exception's name in `x-amzn-ErrorType`, or only in the body's `code` or `__type` (the SDK reads
 * them in that order), throttling as 429 `TooManyRequestsException`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalReply, type LocalRequest, type LocalServer } from '../../infra/local/stand-ins/local-server';
import { AwsServiceError } from '../../shared/aws/aws-json-client';
import { createSesv2Client, type Sesv2Client } from '../../shared/aws/sesv2-client';
import { authenticationFailure, TEST_CREDENTIALS, TEST_REGION } from '../support/aws-wire/caller';

let server: LocalServer;
let client: Sesv2Client;
const seen: LocalRequest[] = [];
let replies: LocalReply[] = [];

const reply = (status: number, body: unknown, headers: Record<string, string> = {}): LocalReply => ({ status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const input = { FromEmailAddress: 'Tessera <no-reply@acme.example>', Destination: { ToAddresses: ['ada@acme.example'] }, Content: { Simple: { Subject: { Data: 'Hi' }, Body: { Text: { Data: 'Hello' } } } } };

beforeAll(async () => {
  server = await startLocalServer((request) => {
    seen.push(request);
    const failure = authenticationFailure(request, 'ses', TEST_REGION);
    if (failure) return reply(403, { message: failure.message }, { 'x-amzn-errortype': failure.type });
    return replies.shift() ?? reply(500, { message: 'no reply queued' });
  });
  client = createSesv2Client({ region: TEST_REGION, endpoint: server.url, credentials: () => Promise.resolve({ ...TEST_CREDENTIALS }) });
});

afterAll(async () => {
  await server?.close();
});

beforeEach(() => {
  seen.length = 0;
  replies = [];
});

describe('the SES v2 client', () => {
  it('posts SendEmail to /v2/email/outbound-emails, signed for ses, and answers the message id', async () => {
    replies = [reply(200, { MessageId: '0102abc-000000' })];
    await expect(client.sendEmail(input)).resolves.toEqual({ MessageId: '0102abc-000000' });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.method).toBe('POST');
    expect(seen[0]!.url.pathname).toBe('/v2/email/outbound-emails');
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen[0]!.body)).toEqual(input);
  });

  it('names an error by x-amzn-ErrorType first, then the body\'s code, then its __type, as the SDK does', async () => {
    replies = [
      reply(400, { message: 'Email address is not verified.', code: 'NotThis' }, { 'x-amzn-errortype': 'MessageRejected:http://internal.amazon.com/coral/com.amazonaws.sesv2/' }),
      reply(400, { message: 'Sending paused', code: 'SendingPausedException', __type: 'NotThis' }),
      reply(404, { message: 'No such configuration set', __type: 'com.amazonaws.sesv2#NotFoundException' }),
    ];
    await expect(client.sendEmail(input)).rejects.toMatchObject({ name: 'MessageRejected', message: 'Email address is not verified.', status: 400 });
    await expect(client.sendEmail(input)).rejects.toMatchObject({ name: 'SendingPausedException', message: 'Sending paused' });
    const error = await client.sendEmail(input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AwsServiceError);
    expect(error).toMatchObject({ name: 'NotFoundException', status: 404 });
  });

  it('retries throttling and a server fault, but not a refusal', async () => {
    replies = [reply(429, { message: 'Maximum sending rate exceeded.' }, { 'x-amzn-errortype': 'TooManyRequestsException' }), reply(503, { message: 'busy' }), reply(200, { MessageId: 'm-1' })];
    await expect(client.sendEmail(input)).resolves.toEqual({ MessageId: 'm-1' });
    expect(seen).toHaveLength(3);
    seen.length = 0;
    replies = [reply(400, { message: 'rejected' }, { 'x-amzn-errortype': 'MessageRejected' }), reply(200, { MessageId: 'never' })];
    await expect(client.sendEmail(input)).rejects.toMatchObject({ name: 'MessageRejected' });
    expect(seen).toHaveLength(1);
  });

  it('refuses a request signed with another secret (the server checks every signature)', async () => {
    const wrong = createSesv2Client({ region: TEST_REGION, endpoint: server.url, credentials: () => Promise.resolve({ accessKeyId: TEST_CREDENTIALS.accessKeyId, secretAccessKey: 'not-the-secret' }) });
    await expect(wrong.sendEmail(input)).rejects.toMatchObject({ name: 'InvalidSignatureException', status: 403 });
  });
});
