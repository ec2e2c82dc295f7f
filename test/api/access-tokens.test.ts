import { generateKeyPairSync } from 'node:crypto';
import { SignJWT, createRemoteJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, login, PASSWORD, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';
import { currentSigningKey } from '../../shared/identity/issuer-signing-key';

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
let token: string;

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

beforeAll(async () => {
  host = await startTestHost({ clock });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  token = (await login(http, clock, tenant.admin.email)).accessToken;
});
afterAll(() => host?.close());

/** Signs `claims` with the host's real key, so only the thing under test is wrong. */
async function signWithHostKey(claims: Record<string, unknown>, header: Record<string, unknown> = {}) {
  const key = await currentSigningKey(host.deps);
  return new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA', kid: key.kid, typ: 'at+jwt', ...header }).sign(key.privateKey);
}

describe('access tokens', () => {
  it('carries the claims of the contract and verifies against the published JWKS', async () => {
    const claims = claimsOf(token);
    expect(claims).toMatchObject({ iss: host.config.publicUrl, aud: 'tessera', sub: tenant.admin.id, tenant_id: tenant.tenantId, workspace_id: tenant.workspaceId, amr: ['pwd'] });
    expect(String(claims.scope).split(' ')).toEqual(expect.arrayContaining(['connections:read', 'users:manage']));
    expect(Number(claims.exp) - Number(claims.iat)).toBe(900);
    for (const name of ['auth_time', 'jti', 'iat']) expect(claims).toHaveProperty(name);
    const jwks = createRemoteJWKSet(new URL(`${host.url}/v1/.well-known/jwks.json`));
    const { protectedHeader } = await jwtVerify(token, jwks, { issuer: host.config.publicUrl, audience: 'tessera', currentDate: clock.now() });
    expect(protectedHeader.kid).toBe((await currentSigningKey(host.deps)).kid);
  });

  it('no credential, a malformed header or garbage answers 401 unauthenticated', async () => {
    for (const headers of [{}, { authorization: 'Basic abc' }, { authorization: 'Bearer' }, { authorization: 'Bearer not.a.jwt' }]) {
      const res = await http.request('GET', '/v1/me', { headers });
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.body).toMatchObject({ code: 'unauthenticated' });
      expect(res.headers['www-authenticate']).toContain('Bearer');
    }
    // Without any credential the answer says what to send.
    expect((await http.request('GET', '/v1/me')).body).toMatchObject({ detail: 'This needs a credential: send Authorization: Bearer <access token or personal access token>' });
  });

  it('refuses a token signed by another key, even with the right kid', async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const forged = await new SignJWT(claimsOf(token)).setProtectedHeader({ alg: 'EdDSA', kid: (await currentSigningKey(host.deps)).kid, typ: 'at+jwt' }).sign(privateKey);
    expect((await http.request('GET', '/v1/me', { token: forged })).status).toBe(401);
  });

  it('refuses alg none and an HMAC token keyed with the public key', async () => {
    const { kid } = await currentSigningKey(host.deps);
    const unsigned = `${b64({ alg: 'none', typ: 'at+jwt', kid })}.${b64(claimsOf(token))}.`;
    expect((await http.request('GET', '/v1/me', { token: unsigned })).status).toBe(401);
    const publicJwk = JSON.stringify((await host.deps.verificationKeys.jwks()).keys[0]);
    const hmac = await new SignJWT(claimsOf(token)).setProtectedHeader({ alg: 'HS256', kid, typ: 'at+jwt' }).sign(new TextEncoder().encode(publicJwk));
    expect((await http.request('GET', '/v1/me', { token: hmac })).status).toBe(401);
  });

  it('refuses a wrong issuer, a wrong audience, a missing claim and a tampered payload', async () => {
    const base = claimsOf(token);
    for (const claims of [{ ...base, iss: 'https://evil.example' }, { ...base, aud: 'another-service' }, { ...base, tenant_id: undefined }]) {
      expect((await http.request('GET', '/v1/me', { token: await signWithHostKey(claims) })).status).toBe(401);
    }
    const [h, , s] = token.split('.');
    const tampered = `${h}.${b64({ ...base, scope: 'users:manage idp:manage' })}.${s}`;
    expect((await http.request('GET', '/v1/me', { token: tampered })).status).toBe(401);
  });

  it('a token is refused once it expires', async () => {
    const fresh = (await login(http, clock, tenant.admin.email)).accessToken;
    expect((await http.request('GET', '/v1/me', { token: fresh })).status).toBe(200);
    clock.advance(15 * 60 + 10);
    const res = await http.request('GET', '/v1/me', { token: fresh });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'unauthenticated', detail: 'The access token has expired' });
  });

  it('a token of another tenant cannot reach this tenant\'s users', async () => {
    const other = await createTestTenant(host.deps, { mfaMode: 'OFF' });
    const otherToken = (await login(http, clock, other.admin.email)).accessToken;
    const adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
    expect((await http.request('GET', `/v1/users/${tenant.admin.id}`, { token: otherToken })).status).toBe(404);
    expect((await http.request('GET', `/v1/users/${tenant.admin.id}`, { token: adminToken })).status).toBe(200);
    // Rewriting the tenant claim breaks the signature; re-signing it needs our key.
    expect((await http.request('GET', '/v1/me', { token: await signWithHostKey({ ...claimsOf(otherToken), tenant_id: tenant.tenantId }) })).status).toBe(401);
  });

  it('every token of a disabled user stops working at once', async () => {
    const adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
    const email = `leaving@${tenant.domain}`;
    const id = await createUser(http, adminToken, { email, role: 'connector_builder' });
    const session = await login(http, clock, email, PASSWORD);
    const pat = await http.request('POST', '/v1/tokens', { token: session.accessToken, body: { name: 'ci', scopes: ['connections:read'] } });
    expect(pat.status).toBe(201);
    const patToken = (pat.body as { token: string }).token;
    expect((await http.request('GET', '/v1/me', { token: session.accessToken })).status).toBe(200);
    expect((await http.request('GET', '/v1/me', { token: patToken })).status).toBe(200);

    expect((await http.request('POST', `/v1/users/${id}/disable`, { token: adminToken })).body).toMatchObject({ status: 'disabled' });
    expect((await http.request('GET', '/v1/me', { token: session.accessToken })).status).toBe(401);
    expect((await http.request('GET', '/v1/me', { token: patToken })).status).toBe(401);
    expect((await http.request('POST', '/v1/auth/token', { body: { grant_type: 'refresh_token', refresh_token: session.refreshToken } })).status).toBe(401);
  });
});
