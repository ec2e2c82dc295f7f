/**
 * Sessions end when credentials change: a password change ends every other session of the
 * user (their refresh tokens and their access tokens) and keeps the caller's; logout ends the
 * access token of its session at once, not only its refresh family. PATs are automation
 * credentials: they survive a password change (disabling the user ends them).
 */
import { decodeJwt } from 'jose';
import { totpCode } from '../../shared/crypto/totp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../shared/store/keys';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, identityAuditEvents, login, PASSWORD, type Session, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

const NEW_PASSWORD = 'a brand new passphrase for autumn';

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
let userCount = 0;

beforeAll(async () => {
  host = await startTestHost({ clock });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
});
afterAll(() => host?.close());

async function newUser(): Promise<string> {
  const email = `session${++userCount}@${tenant.domain}`;
  const admin = await login(http, clock, tenant.admin.email);
  await createUser(http, admin.accessToken, { email, role: 'admin' });
  return email;
}

const me = (token: string) => http.request('GET', '/v1/me', { token });
const refresh = (refreshToken: string) => http.request('POST', '/v1/auth/token', { body: { grant_type: 'refresh_token', refresh_token: refreshToken } });
const refreshed = (res: { body: unknown }) => res.body as { access_token: string; refresh_token: string };

describe('the session id claim', () => {
  it('is shared by every access token of one login session and differs between sessions', async () => {
    const email = await newUser();
    const a = await login(http, clock, email);
    const b = await login(http, clock, email);
    const sidA = decodeJwt(a.accessToken).sid;
    expect(typeof sidA).toBe('string');
    expect(decodeJwt(b.accessToken).sid).not.toBe(sidA);
    const next = await refresh(a.refreshToken);
    expect(next.status).toBe(200);
    expect(decodeJwt(refreshed(next).access_token).sid).toBe(sidA);
  });
});

describe('a password change', () => {
  async function changeFrom(session: Session, from = PASSWORD, to = NEW_PASSWORD) {
    return http.request('POST', '/v1/me/password', { token: session.accessToken, body: { current_password: from, new_password: to } });
  }

  it('ends every other session (refresh and access tokens) and keeps the caller\'s', async () => {
    const email = await newUser();
    const caller = await login(http, clock, email);
    const other = await login(http, clock, email);
    const third = await login(http, clock, email);
    // A refreshed token of another session carries that session's sign-in: it dies too.
    const otherRefreshed = refreshed(await refresh(third.refreshToken));
    clock.advance(1); // sign-in times are whole seconds; a sign-in in the change's own second stays valid
    expect((await changeFrom(caller)).status).toBe(204);

    expect((await me(other.accessToken)).status).toBe(401);
    expect((await me(otherRefreshed.access_token)).status).toBe(401);
    expect((await refresh(other.refreshToken)).status).toBe(401);
    expect((await refresh(otherRefreshed.refresh_token)).status).toBe(401);

    expect((await me(caller.accessToken)).status).toBe(200);
    const callerNext = await refresh(caller.refreshToken);
    expect(callerNext.status).toBe(200);
    expect((await me(refreshed(callerNext).access_token)).status).toBe(200);
    // A sign-in with the new password afterwards works.
    clock.advance(1);
    const fresh = await login(http, clock, email, NEW_PASSWORD);
    expect((await me(fresh.accessToken)).status).toBe(200);

    const userId = (await me(fresh.accessToken)).body as { id: string };
    const events = await identityAuditEvents(host.deps, tenant.tenantId);
    expect(events.find((e) => e.action === 'password_changed' && e.target_id === userId.id)?.payload).toEqual({ other_sessions_ended: true, kept_session_id: decodeJwt(caller.accessToken).sid });
  });

  it('made again from another session ends the session that made the first one', async () => {
    const email = await newUser();
    const first = await login(http, clock, email);
    clock.advance(1);
    expect((await changeFrom(first)).status).toBe(204);
    clock.advance(1);
    const second = await login(http, clock, email, NEW_PASSWORD);
    clock.advance(1);
    expect((await changeFrom(second, NEW_PASSWORD, 'the third passphrase of this user')).status).toBe(204);
    expect((await me(first.accessToken)).status).toBe(401);
    expect((await refresh(first.refreshToken)).status).toBe(401);
    expect((await me(second.accessToken)).status).toBe(200);
  });

  it('leaves personal access tokens working (automation survives a password change)', async () => {
    const email = await newUser();
    const session = await login(http, clock, email);
    const created = await http.request('POST', '/v1/tokens', { token: session.accessToken, body: { name: 'ci', scopes: ['users:read'] } });
    expect(created.status).toBe(201);
    const pat = (created.body as { token: string }).token;
    clock.advance(1);
    expect((await changeFrom(session)).status).toBe(204);
    expect((await me(pat)).status).toBe(200);
  });

  it('a refused change ends nothing', async () => {
    const email = await newUser();
    const caller = await login(http, clock, email);
    const other = await login(http, clock, email);
    clock.advance(1);
    expect((await changeFrom(caller, 'not my password at all')).status).toBe(401);
    expect((await me(other.accessToken)).status).toBe(200);
    expect((await refresh(other.refreshToken)).status).toBe(200);
  });
});

describe('logout', () => {
  it('ends the access token of its session at once; another session is unaffected', async () => {
    const email = await newUser();
    const ending = await login(http, clock, email);
    const staying = await login(http, clock, email);
    const endingRefreshed = refreshed(await refresh(ending.refreshToken));
    expect((await me(ending.accessToken)).status).toBe(200);

    expect((await http.request('POST', '/v1/auth/logout', { body: { refresh_token: endingRefreshed.refresh_token } })).status).toBe(204);
    for (const token of [ending.accessToken, endingRefreshed.access_token]) {
      const res = await me(token);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'unauthenticated' });
    }
    expect((await refresh(endingRefreshed.refresh_token)).status).toBe(401);

    expect((await me(staying.accessToken)).status).toBe(200);
    expect((await refresh(staying.refreshToken)).status).toBe(200);

    const events = await identityAuditEvents(host.deps, tenant.tenantId);
    expect(events.filter((e) => e.action === 'logout' && e.payload.session_id === decodeJwt(ending.accessToken).sid)).toHaveLength(1);
  });

  it('keeps the revocation marker small: entries are dropped once the access tokens they end have expired', async () => {
    const email = await newUser();
    const old = await login(http, clock, email);
    expect((await http.request('POST', '/v1/auth/logout', { body: { refresh_token: old.refreshToken } })).status).toBe(204);
    clock.advance(host.config.jwt.accessTokenTtlSeconds + 60);
    const recent = await login(http, clock, email);
    expect((await http.request('POST', '/v1/auth/logout', { body: { refresh_token: recent.refreshToken } })).status).toBe(204);
    const user = (await me((await login(http, clock, email)).accessToken)).body as { id: string };
    const record = await host.deps.table.get<{ revoked_sessions?: Record<string, number> }>(keys.user(tenant.tenantId, user.id));
    expect(Object.keys(record?.revoked_sessions ?? {})).toEqual([decodeJwt(recent.accessToken).sid]);
  });
});

describe('a stepped-up access token', () => {
  let mfaTenant: TestTenant;
  let mfaUsers = 0;
  beforeAll(async () => {
    mfaTenant = await createTestTenant(host.deps, { mfaMode: 'REQUIRED' });
  });

  async function enrolledUser(): Promise<string> {
    const admin = await login(http, clock, mfaTenant.admin.email);
    const email = `stepped${++mfaUsers}@${mfaTenant.domain}`;
    await createUser(http, admin.accessToken, { email, role: 'viewer' });
    await login(http, clock, email); // enrolls TOTP
    return email;
  }

  async function stepUp(session: Session): Promise<string> {
    const res = await http.request('POST', '/v1/mfa/challenge', { token: session.accessToken, body: { code: await totpCode(session.totpSecret!, clock.epochSeconds()) } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    clock.advance(30);
    return (res.body as { access_token: string }).access_token;
  }

  it('goes on in its session: a password change made with it keeps that session and ends the others', async () => {
    const email = await enrolledUser();
    const caller = await login(http, clock, email);
    const other = await login(http, clock, email);
    clock.advance(11 * 60); // past the step-up window: the change asks for a fresh MFA
    const stepped = await stepUp(caller);
    expect(decodeJwt(stepped).sid).toBe(decodeJwt(caller.accessToken).sid);
    const changed = await http.request('POST', '/v1/me/password', { token: stepped, body: { current_password: PASSWORD, new_password: NEW_PASSWORD } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(204);

    expect((await me(stepped)).status).toBe(200);
    expect((await refresh(caller.refreshToken)).status).toBe(200);
    expect((await me(other.accessToken)).status).toBe(401);
    expect((await refresh(other.refreshToken)).status).toBe(401);
  });

  it('ends with its session at logout', async () => {
    const email = await enrolledUser();
    const session = await login(http, clock, email);
    const stepped = await stepUp(session);
    expect((await me(stepped)).status).toBe(200);
    expect((await http.request('POST', '/v1/auth/logout', { body: { refresh_token: session.refreshToken } })).status).toBe(204);
    expect((await me(stepped)).status).toBe(401);
  });
});
