/**
 * The GETs of Azure discovery against a loopback server, for the answers the readers' tests do
 * not reach: a server error, a 503 with and without Retry-After, a 401 of another tenant, ARM's
 * remaining-reads header, and a next link that is no URL at all.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AzureDiscoveryHttp } from '../../shared/connectors/azure/discovery-http';
import type { AzureConfiguration } from '../../shared/connectors/azure/integration';
import { TestPacer } from '../support/discovery-driver';
import { startLocalServer, type LocalReply, type LocalServer } from '../../infra/local/stand-ins/local-server';

const configuration: AzureConfiguration = {
  tenant_id: '6f1c2b7e-3d4a-4c5b-9e8f-0a1b2c3d4e5f',
  client_id: '2b9e6c1d-8f7a-4e3b-a5c4-d3e2f1a0b9c8',
  client_secret: 'Xq8Q~EXAMPLEsecretVALUEnotREAL.0123456789',
};

let server: LocalServer;
let reply: LocalReply = { status: 200 };
let pacer: TestPacer;
let http: AzureDiscoveryHttp;
const NOW = 1_700_000_000_000;

beforeAll(async () => {
  server = await startLocalServer(() => reply);
});
afterAll(() => server.close());
beforeEach(() => {
  pacer = new TestPacer();
  http = new AzureDiscoveryHttp(configuration, { login: server.url, graph: server.url, arm: server.url }, { signal: AbortSignal.timeout(5_000), pacer, session: new Map(), now: () => NOW });
});

const json = (status: number, body: unknown, headers: Record<string, string> = {}): LocalReply => ({ status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('Azure discovery GETs', () => {
  it('a server error fails the read with the provider\'s code', async () => {
    reply = json(500, { error: { code: 'InternalServerError' } });
    const read = await http.get('arm', `${server.url}/subscriptions`, 'token', 'arm:reads');
    expect(read).toEqual({ kind: 'failed', item: expect.objectContaining({ message: 'Azure Resource Manager answered unexpectedly (HTTP 500 InternalServerError).' }) });
  });

  it('a 503 is throttling only with a Retry-After; without one it is a failure', async () => {
    reply = json(503, {}, { 'retry-after': '7' });
    expect(await http.get('graph', `${server.url}/v1.0/users`, 'token', 'graph')).toEqual({ kind: 'throttled', retryAtMs: NOW + 7_000 });
    expect(pacer.observed).toEqual([{ bucket: 'graph', retryAtMs: NOW + 7_000 }]);
    reply = json(503, {});
    expect(await http.get('graph', `${server.url}/v1.0/users`, 'token', 'graph')).toMatchObject({ kind: 'failed', item: { message: 'Microsoft Graph answered unexpectedly (HTTP 503).' } });
  });

  it('a 401 of another tenant is a refusal for the caller to read, not a bad token', async () => {
    reply = json(401, { error: { code: 'InvalidAuthenticationTokenTenant' } });
    expect(await http.get('arm', `${server.url}/subscriptions/x`, 'token', 'arm:reads')).toEqual({ kind: 'refused', status: 401, code: 'InvalidAuthenticationTokenTenant' });
  });

  it('tells the pacer how many reads ARM says are left', async () => {
    reply = json(200, { value: [] }, { 'x-ms-ratelimit-remaining-subscription-reads': '11' });
    expect(await http.get('arm', `${server.url}/subscriptions`, 'token', 'arm:reads')).toEqual({ kind: 'ok', body: { value: [] } });
    expect(pacer.observed).toEqual([{ bucket: 'arm:reads', remaining: 11 }]);
  });

  it('does not follow a next link that is no URL, and sends nothing', async () => {
    const read = await http.get('graph', 'not a url', 'token', 'graph');
    expect(read).toEqual({ kind: 'failed', item: expect.objectContaining({ message: 'Microsoft Graph answered unexpectedly (a next link to another host, not followed).' }) });
    expect(pacer.requests).toBe(0);
  });
});
