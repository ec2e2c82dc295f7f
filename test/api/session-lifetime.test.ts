/**
 * How long a session lives and what a stolen refresh token can do with it: a session (one
 * sign-in and the refresh tokens descending from it) ends `TESSERA_SESSION_MAX_SECONDS` after
 * its sign-in however often it refreshes, and the reuse of a refresh token ends the session's
 * access tokens as well as its refresh family. The default maximum (30 days) is what runs here.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../shared/crypto/opaque-tokens';
import { keys } from '../../shared/store/keys';
import type { RefreshTokenRecord } from '../../shared/store/records';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, identityAuditEvents, login, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

const DAY = 86_400;

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
  const email = `lifetime${++userCount}@${tenant.domain}`;
  const admin = await login(http, clock, tenant.admin.email);
  await createUser(http, admin.accessToken, { email, role: 'viewer' });
  return email;
}

const me = (token: string) => http.request('GET', '/v1/me', { token });
const refresh = (refreshToken: string) => http.request('POST', '/v1/auth/token', { body: { grant_type: 'refresh_token', refresh_token: refreshToken } });
const tokensOf = (res: { status: number; body: unknown }) => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { access_token: string; refresh_token: string };
};

describe('a reused refresh token', () => {
  it('ends the access tokens of its session too, not only its refresh family; other sessions go on', async () => {
    const email = await newUser();
    const stolen = await login(http, clock, email);
    const other = await login(http, clock, email);
    const next = tokensOf(await refresh(stolen.refreshToken));
    expect((await me(next.access_token)).status).toBe(200);

    // The thief (or the owner) presents the used token again.
    expect((await refresh(stolen.refreshToken)).status).toBe(401);
    // Both access tokens of that session are refused at once, not 15 minutes later.
    expect((await me(next.access_token)).status).toBe(401);
    expect((await me(stolen.accessToken)).status).toBe(401);
    expect((await refresh(next.refresh_token)).status).toBe(401);
    // The user's other sign-in is untouched.
    expect((await me(other.accessToken)).status).toBe(200);
    expect((await refresh(other.refreshToken)).status).toBe(200);
    const events = await identityAuditEvents(host.deps, tenant.tenantId);
    expect(events.filter((e) => e.action === 'refresh_token_reused')).toHaveLength(1);
  });
});

describe('the absolute session lifetime', () => {
  it('ends a session 30 days after its sign-in however often it refreshes; a new sign-in starts a new one', async () => {
    const email = await newUser();
    clock.hold();
    const signedInAt = clock.now().getTime();
    const sessionEnd = signedInAt + 30 * DAY * 1000;
    let tokens = tokensOf(await http.request('POST', '/v1/auth/login', { body: { email, password: 'correct horse battery staple' } }));

    // Refreshed every 12 days: each refresh would have slid a 30-day expiry further.
    clock.advance(12 * DAY);
    tokens = tokensOf(await refresh(tokens.refresh_token));
    clock.advance(12 * DAY);
    tokens = tokensOf(await refresh(tokens.refresh_token));
    // Issued on day 24: its own expiry stops at the session's end, not at day 54.
    const stored = await host.deps.table.get<RefreshTokenRecord>(keys.refreshToken(sha256Hex(tokens.refresh_token)));
    expect(Date.parse(stored!.expires_at)).toBe(sessionEnd);
    expect(stored!.session_expires_at).toBe(new Date(sessionEnd).toISOString());

    // Day 29 still inside; then one second past the end is outside.
    clock.advance(5 * DAY);
    tokens = tokensOf(await refresh(tokens.refresh_token));
    clock.advance(DAY + 1);
    const late = await refresh(tokens.refresh_token);
    expect(late.status).toBe(401);
    expect(late.body).toMatchObject({ code: 'unauthenticated' });

    // Signing in again is the way on.
    const again = await login(http, clock, email);
    expect((await refresh(again.refreshToken)).status).toBe(200);
  });

  it('ends a session whose refresh token predates the recorded end at its sign-in time + 30 days', async () => {
    const email = await newUser();
    let tokens = tokensOf(await http.request('POST', '/v1/auth/login', { body: { email, password: 'correct horse battery staple' } }));
    clock.advance(20 * DAY);
    tokens = tokensOf(await refresh(tokens.refresh_token));
    // As a deployment before the session end existed stored it: a 30-day expiry from the refresh, no end.
    const key = keys.refreshToken(sha256Hex(tokens.refresh_token));
    await host.documents.send(new UpdateCommand({
      TableName: host.config.tableName, Key: key,
      UpdateExpression: 'SET expires_at = :later REMOVE session_expires_at',
      ExpressionAttributeValues: { ':later': new Date(clock.now().getTime() + 30 * DAY * 1000).toISOString() },
    }));
    clock.advance(11 * DAY);
    expect((await refresh(tokens.refresh_token)).status).toBe(401);
  });
});
