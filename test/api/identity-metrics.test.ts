/**
 * The identity metrics count what happened, by method or credential kind: sign-ins and their
 * failures, MFA answers right and wrong, and every authenticated request by token kind.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { totpCode } from '../../shared/crypto/totp';
import { metricNames } from '../../shared/observability';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login, PASSWORD, totpSecrets, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;

beforeAll(async () => {
  host = await startTestHost({ clock });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'REQUIRED', requiredActions: ['LOGIN'] });
});
afterAll(() => host?.close());

describe('identity metrics', () => {
  it('count sign-ins, MFA answers and token uses with their method or kind', async () => {
    const count = vi.spyOn(host.deps.observability, 'count');
    const session = await login(http, clock, tenant.admin.email); // enrolls TOTP: one MFA success
    expect((await http.request('POST', '/v1/auth/login', { body: { email: tenant.admin.email, password: 'not the password at all' } })).status).toBe(401);
    const pending = (await http.request('POST', '/v1/auth/login', { body: { email: tenant.admin.email, password: PASSWORD } })).body as { mfa_token: string };
    const right = await totpCode(totpSecrets.get(tenant.admin.email)!, clock.epochSeconds());
    const wrong = right === '000000' ? '111111' : '000000';
    expect((await http.request('POST', '/v1/mfa/challenge', { body: { mfa_token: pending.mfa_token, code: wrong } })).status).toBe(401);
    expect((await http.request('POST', '/v1/mfa/challenge', { body: { mfa_token: pending.mfa_token, code: right } })).status).toBe(200);
    clock.advance(30);
    expect((await http.request('GET', '/v1/me', { token: session.accessToken })).status).toBe(200);
    const pat = (await http.request('POST', '/v1/tokens', { token: session.accessToken, body: { name: 'ci', scopes: ['users:read'] } })).body as { token: string };
    expect((await http.request('GET', '/v1/me', { token: pat.token })).status).toBe(200);

    const counted = count.mock.calls.map(([name, dimensions]) => `${name} ${JSON.stringify(dimensions ?? {})}`);
    count.mockRestore();
    const identity = new Set<string>([metricNames.loginSuccess, metricNames.loginFailure, metricNames.mfaSuccess, metricNames.mfaFailure]);
    expect(counted.filter((c) => identity.has(c.split(' ')[0]!)).sort()).toEqual(
      ['MfaSuccess {"method":"totp"}', 'LoginFailure {"method":"password"}', 'MfaFailure {"method":"totp"}', 'MfaSuccess {"method":"totp"}', 'LoginSuccess {"method":"password"}'].sort(),
    );
    // Two requests with the access token (/me, the PAT creation), one with the PAT.
    expect(counted.filter((c) => c.startsWith(metricNames.tokenUse)).sort()).toEqual(['TokenUse {"kind":"jwt"}', 'TokenUse {"kind":"jwt"}', 'TokenUse {"kind":"pat"}']);
  });
});
