/**
 * The Okta and Azure connector tests for answers the local fakes never give: an org URL that is
 * not an Okta org (404), a server error, and ARM refusing the token (401) or failing (500).
 * A local server answers each path as the test scripts it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { azureExamples } from '../../shared/connectors/azure/integration';
import { azureConnector } from '../../shared/connectors/azure/connector';
import { oktaExamples } from '../../shared/connectors/okta/integration';
import { oktaConnector } from '../../shared/connectors/okta/connector';

type Scripted = (path: string) => { status: number; body: unknown };
let answer: Scripted = () => ({ status: 200, body: {} });
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const { status, body } = answer(req.url ?? '/');
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const context = () => ({ signal: AbortSignal.timeout(5_000), endpoints: { okta: url, login: url, graph: url, arm: url } });

describe('the Okta connector test', () => {
  it('an org URL that answers 404 on the management API is not an Okta org', async () => {
    answer = () => ({ status: 404, body: {} });
    const result = await oktaConnector.test(oktaExamples, context());
    expect(result).toEqual({ status: 'failure', remediation: [expect.objectContaining({ message: 'The org URL does not answer like an Okta org (HTTP 404 on the management API).' })] });
  });

  it('any other status is unexpected, with Okta\'s error code when it gives one', async () => {
    answer = (path) => (path.startsWith('/api/v1/users') ? { status: 500, body: { errorCode: 'E0000009' } } : { status: 502, body: 'gateway' });
    const result = await oktaConnector.test(oktaExamples, context());
    expect(result.status).toBe('failure');
    expect(result.remediation.map((r) => r.message)).toEqual(['Okta answered unexpectedly (HTTP 500 E0000009).', 'Okta answered unexpectedly (HTTP 502).']);
  });
});

describe('the Azure connector test', () => {
  const { tenant_id: tenantId, client_id: clientId } = azureExamples.configuration;
  const [subscriptionId] = azureExamples.scope.subscription_ids;
  const azure = (arm: { status: number; body: unknown }): Scripted => (path) => {
    if (path.endsWith('/oauth2/v2.0/token')) return { status: 200, body: { access_token: 'token', token_type: 'Bearer', expires_in: 3600 } };
    if (path.startsWith('/subscriptions/')) return arm;
    return { status: 200, body: { value: [] } };
  };

  it('ARM refusing the token (401 without another tenant\'s code) is a token it did not accept', async () => {
    answer = azure({ status: 401, body: { error: { code: 'InvalidAuthenticationToken' } } });
    expect(await azureConnector.test(azureExamples, context())).toEqual({
      status: 'failure',
      remediation: [expect.objectContaining({ message: `Azure Resource Manager did not accept the token issued to app ${clientId} (HTTP 401).` })],
    });
  });

  it('a 401 of another tenant is a subscription not found in this one; a server error is unexpected', async () => {
    answer = azure({ status: 401, body: { error: { code: 'InvalidAuthenticationTokenTenant' } } });
    expect((await azureConnector.test(azureExamples, context())).remediation.map((r) => r.message)).toEqual([`Subscription ${subscriptionId} was not found in tenant ${tenantId}.`]);
    answer = azure({ status: 500, body: { error: { code: 'InternalServerError' } } });
    expect((await azureConnector.test(azureExamples, context())).remediation.map((r) => r.message)).toEqual(['Azure Resource Manager answered unexpectedly (HTTP 500 InternalServerError).']);
  });
});
