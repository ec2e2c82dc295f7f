/**
 * Step-up MFA for every action a tenant policy can list, TOTP replay (also in parallel),
 * backup codes (single use, also in parallel; regeneration) and the MFA failure limiter.
 * The tenant runs the default policy: REQUIRED with all seven actions.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { routeList } from '../../functions/routes';
import { totpCode } from '../../shared/crypto/totp';
import { mfaActions } from '../../shared/store/identity-enums';
import { linkFederatedIdentity } from '../../shared/identity/sso/federated-identities';
import { keys } from '../../shared/store/keys';
import type { IdpConfigRecord } from '../../shared/store/records';
import { metricNames } from '../../shared/observability';
import { startDnsServer, type TestDnsServer } from '../support/dns-server';
import { api, type HttpClient, type HttpResponse } from '../support/http-client';
import { createTestTenant, createUser, identityAuditEvents, login, PASSWORD, type Session, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

const FAILURE_LIMIT = 6;
const STALE = 11 * 60; // seconds: past the 10-minute step-up window, within the 15-minute token life

let host: TestHost;
let dns: TestDnsServer;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
let users = 0;

beforeAll(async () => {
  dns = await startDnsServer();
  host = await startTestHost({ clock, env: { TESSERA_DNS_RESOLVER: dns.address, TESSERA_RATE_LOGIN_ACCOUNT_FAILURES: String(FAILURE_LIMIT), TESSERA_RATE_LOGIN_ACCOUNT_IP_FAILURES: String(FAILURE_LIMIT) } });
  http = api(host.url);
  tenant = await createTestTenant(host.deps);
});
afterAll(async () => {
  await host?.close();
  await dns?.close();
});

const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as { amr: string[]; mfa_at?: number; auth_time: number };

async function adminSession(): Promise<Session> {
  return login(http, clock, tenant.admin.email);
}

/** A new user of the tenant (enrolled in TOTP by its first login) and its session. */
async function newUserSession(role = 'viewer'): Promise<Session & { email: string; id: string }> {
  const admin = await adminSession();
  const email = `user${++users}@${tenant.domain}`;
  const id = await createUser(http, admin.accessToken, { email, role });
  return { ...(await login(http, clock, email)), email, id };
}

/**
 * Answers a step-up challenge with the current TOTP code; returns the new access token. Like
 * the login fixture, it moves the clock one step after using a code, so the next one is new.
 */
async function stepUp(session: Session): Promise<string> {
  const res = await http.request('POST', '/v1/mfa/challenge', { token: session.accessToken, body: { code: await totpCode(session.totpSecret!, clock.epochSeconds()) } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const token = (res.body as { access_token: string }).access_token;
  const claims = claimsOf(token);
  expect(claims.amr).toContain('otp');
  expect(Math.abs(claims.mfa_at! - clock.epochSeconds())).toBeLessThanOrEqual(1);
  expect(claims.auth_time).toBe(claimsOf(session.accessToken).auth_time); // same sign-in, fresher MFA
  clock.advance(30);
  return token;
}

function expectMfaRequired(res: HttpResponse): void {
  expect(res.status, JSON.stringify(res.body)).toBe(401);
  expect(res.body).toMatchObject({ code: 'mfa_required' });
  expect(res.headers['www-authenticate']).toMatch(/^Bearer error="insufficient_user_authentication"/);
}

/** The action is refused with a stale MFA, then accepted after a step-up challenge. */
async function expectStepUpGate(session: Session, call: (token: string) => Promise<HttpResponse>, okStatus: number): Promise<HttpResponse> {
  clock.advance(STALE);
  expectMfaRequired(await call(session.accessToken));
  const accepted = await call(await stepUp(session));
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(okStatus);
  return accepted;
}

async function createPat(token: string, scopes = ['users:read']): Promise<{ id: string; token: string }> {
  const res = await http.request('POST', '/v1/tokens', { token, body: { name: `pat-${Math.random()}`, scopes } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; token: string };
}

describe('step-up for each action the policy lists', () => {
  const idp = () => `/v1/tenants/${tenant.tenantId}/idp`;
  const idpBody = { provider_type: 'oidc', issuer: 'https://idp.example.com', client_id: 'tessera', client_secret: 'a-client-secret-for-the-test', allowed_redirect_uris: ['https://console.example.com/done'], active: true };
  /** Puts the IdP configuration in the state a case starts from, with a fresh login (fresh MFA). */
  async function idpPresent(present: boolean): Promise<void> {
    const admin = await adminSession();
    const exists = (await http.request('GET', idp(), { token: admin.accessToken })).status === 200;
    if (exists === present) return;
    const res = present ? await http.request('POST', idp(), { token: admin.accessToken, body: idpBody }) : await http.request('DELETE', idp(), { token: admin.accessToken });
    expect(res.status, JSON.stringify(res.body)).toBe(present ? 201 : 204);
  }
  const domains = () => `/v1/tenants/${tenant.tenantId}/domains`;
  async function addDomain(session: Session): Promise<{ domain: string; verification: { name: string; value: string } }> {
    const res = await http.request('POST', domains(), { token: session.accessToken, body: { domain: `gated${++users}-${tenant.slug}.example` } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { domain: string; verification: { name: string; value: string } };
  }
  async function newUserId(admin: Session): Promise<string> {
    return createUser(http, admin.accessToken, { email: `gated${++users}@${tenant.domain}`, role: 'viewer' });
  }

  /**
   * How to call each gated route (`METHOD path` of the route table) and what it answers once
   * stepped up. The routes come from the table: a new route with an `mfaAction` fails the
   * coverage test below until it has a case here, and a route that loses its flag fails both
   * the coverage test and (its stale-MFA call succeeding) its own case.
   */
  const cases: Record<string, () => Promise<void>> = {
    'POST /v1/tokens': async () => {
      await expectStepUpGate(await adminSession(), (token) => http.request('POST', '/v1/tokens', { token, body: { name: 'gated', scopes: ['users:read'] } }), 201);
    },
    'POST /v1/tokens/{id}/rotate': async () => {
      const session = await adminSession();
      const pat = await createPat(session.accessToken);
      await expectStepUpGate(session, (token) => http.request('POST', `/v1/tokens/${pat.id}/rotate`, { token }), 201);
    },
    'DELETE /v1/tokens/{id}': async () => {
      const session = await adminSession();
      const pat = await createPat(session.accessToken);
      await expectStepUpGate(session, (token) => http.request('DELETE', `/v1/tokens/${pat.id}`, { token }), 204);
      expect((await http.request('GET', '/v1/me', { token: pat.token })).status).toBe(401);
    },
    'POST /v1/me/password': async () => {
      const user = await newUserSession();
      await expectStepUpGate(user, (token) => http.request('POST', '/v1/me/password', { token, body: { current_password: PASSWORD, new_password: 'a gated new passphrase' } }), 204);
      expect((await http.request('POST', '/v1/auth/login', { body: { email: user.email, password: PASSWORD } })).status).toBe(401);
    },
    'POST /v1/users': async () => {
      await expectStepUpGate(await adminSession(), (token) => http.request('POST', '/v1/users', { token, body: { email: `gated${++users}@${tenant.domain}`, role: 'viewer' } }), 201);
    },
    'PATCH /v1/users/{id}': async () => {
      const session = await adminSession();
      const id = await newUserId(session);
      await expectStepUpGate(session, (token) => http.request('PATCH', `/v1/users/${id}`, { token, body: { role: 'connector_builder' } }), 200);
    },
    'POST /v1/users/{id}/disable': async () => {
      const session = await adminSession();
      const id = await newUserId(session);
      await expectStepUpGate(session, (token) => http.request('POST', `/v1/users/${id}/disable`, { token }), 200);
    },
    'POST /v1/users/{id}/enable': async () => {
      const session = await adminSession();
      const id = await newUserId(session);
      expect((await http.request('POST', `/v1/users/${id}/disable`, { token: session.accessToken })).status).toBe(200);
      await expectStepUpGate(session, (token) => http.request('POST', `/v1/users/${id}/enable`, { token }), 200);
    },
    'POST /v1/users/{id}/mfa/reset': async () => {
      const session = await adminSession();
      const user = await newUserSession();
      await expectStepUpGate(session, (token) => http.request('POST', `/v1/users/${user.id}/mfa/reset`, { token }), 204);
      expect((await http.request('GET', '/v1/me', { token: user.accessToken })).status).toBe(401);
    },
    'POST /v1/tenants/{id}/idp': async () => {
      await idpPresent(false);
      await expectStepUpGate(await adminSession(), (token) => http.request('POST', idp(), { token, body: idpBody }), 201);
    },
    'PATCH /v1/tenants/{id}/idp': async () => {
      await idpPresent(true);
      await expectStepUpGate(await adminSession(), (token) => http.request('PATCH', idp(), { token, body: { client_id: 'tessera-2', client_secret: 'the-secret-of-client-2' } }), 200);
      // Reading the configuration is not a change: no step-up.
      const reader = await adminSession();
      clock.advance(STALE);
      expect((await http.request('GET', idp(), { token: reader.accessToken })).status).toBe(200);
    },
    'DELETE /v1/tenants/{id}/idp': async () => {
      await idpPresent(true);
      await expectStepUpGate(await adminSession(), (token) => http.request('DELETE', idp(), { token }), 204);
    },
    'POST /v1/tenants/{id}/domains': async () => {
      await expectStepUpGate(await adminSession(), (token) => http.request('POST', domains(), { token, body: { domain: `gated${++users}-${tenant.slug}.example` } }), 201);
    },
    'POST /v1/tenants/{id}/domains/{domain}/verify': async () => {
      const session = await adminSession();
      const { domain, verification } = await addDomain(session);
      dns.zone.set(verification.name, [verification.value]);
      const verified = await expectStepUpGate(session, (token) => http.request('POST', `${domains()}/${domain}/verify`, { token }), 200);
      expect(verified.body).toMatchObject({ status: 'verified' });
    },
    'DELETE /v1/tenants/{id}/domains/{domain}': async () => {
      const session = await adminSession();
      const { domain } = await addDomain(session);
      await expectStepUpGate(session, (token) => http.request('DELETE', `${domains()}/${domain}`, { token }), 204);
    },
    'DELETE /v1/users/{id}/federated-identities/{identity_id}': async () => {
      await idpPresent(true);
      const session = await adminSession();
      const userId = await newUserId(session);
      const user = (await http.request('GET', `/v1/users/${userId}`, { token: session.accessToken })).body as { email: string };
      // The link itself is the account-linking test's subject (an SSO login with a link intent); here it is made directly.
      const idpRecord = (await host.deps.table.get<IdpConfigRecord>(keys.idpConfig(tenant.tenantId)))!;
      const linked = await linkFederatedIdentity(host.deps, idpRecord, { providerType: 'oidc', issuer: idpRecord.oidc!.issuer, subject: `sub-${userId}`, email: user.email, emailVerified: true, amr: ['pwd'], acr: undefined, authTime: undefined }, userId, '127.0.0.1');
      await expectStepUpGate(session, (token) => http.request('DELETE', `/v1/users/${userId}/federated-identities/${linked.id}`, { token }), 204);
    },
  };
  const routeKey = (route: { method: string; path: string }) => `${route.method} ${route.path}`;
  const gated = routeList.filter((r) => r.mfaAction !== undefined);

  it('covers exactly the routes the route table gates, and every action they name', () => {
    expect(gated.length).toBeGreaterThan(0);
    expect(Object.keys(cases).sort(), 'step-up cases = routes with an mfaAction').toEqual(gated.map(routeKey).sort());
    for (const route of gated) expect(mfaActions).toContain(route.mfaAction);
    // Every action a policy can list is enforced somewhere: LOGIN by the login, the rest by routes.
    expect(new Set(['LOGIN', ...gated.map((r) => r.mfaAction)])).toEqual(new Set(mfaActions));
  });

  for (const route of gated) {
    it(`${route.mfaAction}: ${routeKey(route)}`, async () => {
      const run = cases[routeKey(route)];
      expect(run, `a step-up case for ${routeKey(route)}`).toBeDefined();
      await run!();
    });
  }

  it('a PAT never carries an MFA, so it cannot perform a gated action', async () => {
    const session = await adminSession();
    const pat = await createPat(session.accessToken, ['tokens:manage', 'users:read', 'users:manage']);
    expectMfaRequired(await http.request('DELETE', `/v1/tokens/${pat.id}`, { token: pat.token }));
    expectMfaRequired(await http.request('POST', '/v1/users', { token: pat.token, body: { email: `pat-made-${Date.now()}@example.test`, role: 'viewer' } }));
  });

  it('actions outside the gate need no recent MFA', async () => {
    const session = await adminSession();
    clock.advance(STALE);
    expect((await http.request('GET', '/v1/tokens', { token: session.accessToken })).status).toBe(200);
    expect((await http.request('GET', '/v1/users', { token: session.accessToken })).status).toBe(200);
  });
});

describe('TOTP codes are accepted once', () => {
  it('refuses the same code twice, and a code of an earlier step', async () => {
    const user = await newUserSession();
    clock.advance(30);
    const code = await totpCode(user.totpSecret!, clock.epochSeconds());
    const first = await http.request('POST', '/v1/mfa/challenge', { token: user.accessToken, body: { code } });
    expect(first.status).toBe(200);
    const replay = await http.request('POST', '/v1/mfa/challenge', { token: user.accessToken, body: { code } });
    expect(replay.status).toBe(401);
    // It says what is wrong: the code, not the email or password the user typed minutes ago.
    expect(replay.body).toMatchObject({ code: 'invalid_credentials', detail: 'The code is wrong or was already used; enter the next code your authenticator app shows' });
    const earlier = await http.request('POST', '/v1/mfa/challenge', { token: user.accessToken, body: { code: await totpCode(user.totpSecret!, clock.epochSeconds() - 30) } });
    expect(earlier.status).toBe(401);

    // Nor can the used code complete a login.
    const pending = await http.request('POST', '/v1/auth/login', { body: { email: user.email, password: PASSWORD } });
    const mfaToken = (pending.body as { mfa_token: string }).mfa_token;
    const reusedAtLogin = await http.request('POST', '/v1/mfa/challenge', { body: { mfa_token: mfaToken, code } });
    expect(reusedAtLogin.status).toBe(401);
    expect((reusedAtLogin.body as { detail: string }).detail).toMatch(/code is wrong or was already used/);
    clock.advance(30);
    expect((await http.request('POST', '/v1/mfa/challenge', { body: { mfa_token: mfaToken, code: await totpCode(user.totpSecret!, clock.epochSeconds()) } })).status).toBe(200);
  });

  it('two (or five) parallel requests with one code: exactly one 200', async () => {
    for (const parallel of [2, 5]) {
      const user = await newUserSession();
      clock.advance(30);
      const code = await totpCode(user.totpSecret!, clock.epochSeconds());
      const answers = await Promise.all(Array.from({ length: parallel }, () => http.request('POST', '/v1/mfa/challenge', { token: user.accessToken, body: { code } })));
      expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(parallel - 1).fill(401)]);
    }
  });

  it('two parallel logins answering with one code: exactly one session', async () => {
    const user = await newUserSession();
    const tokens = await Promise.all(
      [1, 2].map(async () => ((await http.request('POST', '/v1/auth/login', { body: { email: user.email, password: PASSWORD } })).body as { mfa_token: string }).mfa_token),
    );
    clock.advance(30);
    const code = await totpCode(user.totpSecret!, clock.epochSeconds());
    const answers = await Promise.all(tokens.map((mfaToken) => http.request('POST', '/v1/mfa/challenge', { body: { mfa_token: mfaToken, code } })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401]);
  });
});

describe('backup codes', () => {
  it('complete a login once; a used code is refused', async () => {
    const user = await newUserSession();
    expect(user.backupCodes).toHaveLength(10);
    const pending = async () => ((await http.request('POST', '/v1/auth/login', { body: { email: user.email, password: PASSWORD } })).body as { mfa_token: string }).mfa_token;
    const ok = await http.request('POST', '/v1/mfa/challenge', { body: { mfa_token: await pending(), backup_code: user.backupCodes![0] } });
    expect(ok.status).toBe(200);
    expect(claimsOf((ok.body as { access_token: string }).access_token).amr).toEqual(['pwd', 'otp']);
    const reused = await http.request('POST', '/v1/mfa/challenge', { body: { mfa_token: await pending(), backup_code: user.backupCodes![0] } });
    expect(reused.status).toBe(401);
    expect(reused.body).toMatchObject({ code: 'invalid_credentials', detail: 'The backup code is wrong or was already used; each backup code works once' });
    // Case and separators do not matter; the code is the same code.
    expect((await http.request('POST', '/v1/mfa/challenge', { body: { mfa_token: await pending(), backup_code: user.backupCodes![1]!.toUpperCase().replace('-', ' ') } })).status).toBe(200);
  });

  it('one code redeemed by five parallel step-ups: exactly one 200', async () => {
    const user = await newUserSession();
    const code = user.backupCodes![0]!;
    const answers = await Promise.all(Array.from({ length: 5 }, () => http.request('POST', '/v1/mfa/challenge', { token: user.accessToken, body: { backup_code: code } })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401, 401, 401]);
  });

  it('regen needs a recent MFA, returns ten new codes shown once, and the old set stops working', async () => {
    const user = await newUserSession();
    const pat = await createPat(user.accessToken);
    // A PAT never manages MFA, whatever the policy says.
    const viaPat = await http.request('POST', '/v1/mfa/backup-codes/regen', { token: pat.token });
    expect(viaPat.status).toBe(403);
    expect(viaPat.body).toMatchObject({ code: 'forbidden' });
    clock.advance(STALE);
    expectMfaRequired(await http.request('POST', '/v1/mfa/backup-codes/regen', { token: user.accessToken }));

    const fresh = await stepUp(user);
    const regen = await http.request('POST', '/v1/mfa/backup-codes/regen', { token: fresh });
    expect(regen.status).toBe(200);
    const codes = (regen.body as { backup_codes: string[] }).backup_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(codes.some((c) => user.backupCodes!.includes(c))).toBe(false);

    // Stored as digests only.
    const scan = await host.documents.send(new ScanCommand({ TableName: host.config.tableName }));
    const table = JSON.stringify(scan.Items);
    for (const code of codes) expect(table).not.toContain(code);

    const challenge = (backup_code: string) => http.request('POST', '/v1/mfa/challenge', { token: user.accessToken, body: { backup_code } });
    expect((await challenge(user.backupCodes![3]!)).status).toBe(401);
    expect((await challenge(codes[0]!)).status).toBe(200);

    const events = (await identityAuditEvents(host.deps, tenant.tenantId)).filter((e) => e.target_id === user.id);
    expect(events.map((e) => e.action)).toEqual(expect.arrayContaining(['mfa_backup_codes_regenerated', 'mfa_step_up', 'mfa_enrolled']));
  });
});

describe('wrong MFA codes', () => {
  it(`are limited per account: after ${FAILURE_LIMIT} failures even the right code gets 429; each failure is audited and counted`, async () => {
    clock.advance(host.config.rateLimits.windowSeconds);
    const user = await newUserSession();
    const count = vi.spyOn(host.deps.observability, 'count');
    clock.advance(30);
    const right = await totpCode(user.totpSecret!, clock.epochSeconds());
    const wrong = right === '000000' ? '111111' : '000000';
    const answers = [];
    for (let i = 0; i < FAILURE_LIMIT + 2; i++) answers.push((await http.request('POST', '/v1/mfa/challenge', { token: user.accessToken, body: { code: wrong } })).status);
    expect(answers).toEqual([...Array(FAILURE_LIMIT).fill(401), 429, 429]);
    expect((await http.request('POST', '/v1/mfa/challenge', { token: user.accessToken, body: { code: right } })).status).toBe(429);
    expect(count.mock.calls.filter(([name]) => name === metricNames.mfaFailure)).toHaveLength(FAILURE_LIMIT);
    count.mockRestore();
    const events = (await identityAuditEvents(host.deps, tenant.tenantId)).filter((e) => e.target_id === user.id);
    expect(events.filter((e) => e.action === 'mfa_challenge_failed')).toHaveLength(FAILURE_LIMIT);

    clock.advance(host.config.rateLimits.windowSeconds);
    const later = await login(http, clock, user.email);
    expect(later.accessToken).toBeTruthy();
  });
});
