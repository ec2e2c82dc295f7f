import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOpaqueToken, hasTokenShape, sha256Hex } from '../../shared/crypto/opaque-tokens';
import { keys } from '../../shared/store/keys';
import { totpCode } from '../../shared/crypto/totp';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, login, PASSWORD, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
let adminToken: string;
let builderToken: string;

type Created = { id: string; token: string; scopes: string[]; expires_at: string; created_at: string; workspace_id: string };

async function createPat(token: string, body: Record<string, unknown>) {
  return http.request('POST', '/v1/tokens', { token, body });
}

beforeAll(async () => {
  host = await startTestHost({ clock });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
  await createUser(http, adminToken, { email: `builder@${tenant.domain}`, role: 'connector_builder' });
  builderToken = (await login(http, clock, `builder@${tenant.domain}`)).accessToken;
});
afterAll(() => host?.close());

describe('personal access tokens', () => {
  it('are shown once, stored as a digest, expire in 90 days by default and act with scopes ∩ permissions', async () => {
    const res = await createPat(builderToken, { name: 'reader', scopes: ['connections:read', 'users:read'] });
    expect(res.status).toBe(201);
    const pat = res.body as Created;
    expect(pat.token).toMatch(/^tsr_pat_/);
    expect(pat.workspace_id).toBe(tenant.workspaceId);
    expect(Date.parse(pat.expires_at) - Date.parse(pat.created_at)).toBe(90 * 86_400_000);

    const stored = await host.deps.table.get<Record<string, unknown>>(keys.personalAccessToken(sha256Hex(pat.token)));
    expect(stored).toMatchObject({ id: pat.id, token_hash: sha256Hex(pat.token) });
    expect(JSON.stringify(stored)).not.toContain(pat.token);

    const list = await http.request('GET', '/v1/tokens', { token: builderToken });
    expect(list.status).toBe(200);
    const listed = (list.body as { tokens: Record<string, unknown>[] }).tokens.find((t) => t.id === pat.id)!;
    expect(listed).toMatchObject({ id: pat.id, name: 'reader', scopes: ['connections:read', 'users:read'], revoked_at: null });
    expect(listed).not.toHaveProperty('token');
    expect(listed).not.toHaveProperty('token_hash');

    const me = await http.request('GET', '/v1/me', { token: pat.token });
    expect(me.status).toBe(200);
    expect((me.body as { permissions: string[] }).permissions.sort()).toEqual(['connections:read', 'users:read']);
    // tokens:manage is not among its scopes.
    const denied = await http.request('GET', '/v1/tokens', { token: pat.token });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'forbidden' });
  });

  it('maintains last_used_at without writing on every request', async () => {
    const pat = (await createPat(builderToken, { name: 'usage', scopes: ['users:read'] })).body as Created;
    await http.request('GET', '/v1/me', { token: pat.token });
    const after1 = await host.deps.table.get<{ last_used_at: string }>(keys.personalAccessToken(sha256Hex(pat.token)));
    expect(after1?.last_used_at).toBeTruthy();
    await http.request('GET', '/v1/me', { token: pat.token });
    const after2 = await host.deps.table.get<{ last_used_at: string }>(keys.personalAccessToken(sha256Hex(pat.token)));
    expect(after2?.last_used_at).toBe(after1?.last_used_at);
    clock.advance(61);
    await http.request('GET', '/v1/me', { token: pat.token });
    const after3 = await host.deps.table.get<{ last_used_at: string }>(keys.personalAccessToken(sha256Hex(pat.token)));
    expect(after3?.last_used_at).not.toBe(after1?.last_used_at);
  });

  it('refuses scopes that are not registered (400) or not held by the creator (403)', async () => {
    const unknown = await createPat(builderToken, { name: 'x', scopes: ['root:everything'] });
    expect(unknown.status).toBe(400);
    const notHeld = await createPat(builderToken, { name: 'x', scopes: ['users:manage'] });
    expect(notHeld.status).toBe(403);
    for (const body of [{ name: '', scopes: ['users:read'] }, { name: 'x', scopes: [] }, { name: 'x', scopes: ['users:read'], expires_in_days: 366 }, { name: 'x', scopes: ['users:read'], extra: 1 }]) {
      expect((await createPat(builderToken, body)).status, JSON.stringify(body)).toBe(400);
    }
  });

  it('rotation revokes the old token at once and keeps name, scopes, workspace and expiry', async () => {
    const old = (await createPat(builderToken, { name: 'rotating', scopes: ['connections:read'], expires_in_days: 10 })).body as Created;
    clock.advance(3 * 86_400);
    // Sessions are 15 minutes long: sign in again, three days later.
    builderToken = (await login(http, clock, `builder@${tenant.domain}`)).accessToken;
    adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
    const res = await http.request('POST', `/v1/tokens/${old.id}/rotate`, { token: builderToken });
    expect(res.status).toBe(201);
    const fresh = res.body as Created & { name: string };
    expect(fresh.id).not.toBe(old.id);
    expect(fresh).toMatchObject({ name: 'rotating', scopes: ['connections:read'], workspace_id: old.workspace_id });
    // Rotating replaces the secret; it does not extend the access: three days later, seven are left.
    expect(fresh.expires_at).toBe(old.expires_at);
    expect(Date.parse(fresh.expires_at) - Date.parse(fresh.created_at)).toBeLessThanOrEqual(7 * 86_400_000);
    expect((await http.request('GET', '/v1/me', { token: old.token })).status).toBe(401);
    expect((await http.request('GET', '/v1/me', { token: fresh.token })).status).toBe(200);
    // A rotated token cannot be rotated again.
    expect((await http.request('POST', `/v1/tokens/${old.id}/rotate`, { token: builderToken })).status).toBe(404);
  });

  it('never manages credentials, whatever its scopes and the MFA policy: password, MFA, tokens, IdP (403)', async () => {
    // The tenant's policy is OFF: nothing asks for a step-up, so only the credential kind can refuse.
    const allScopes = ((await http.request('GET', '/v1/me', { token: adminToken })).body as { permissions: string[] }).permissions;
    const pat = ((await createPat(adminToken, { name: 'automation', scopes: allScopes, expires_in_days: 1 })).body as Created);
    expect(pat.scopes).toEqual(expect.arrayContaining(['tokens:manage', 'idp:manage', 'mfa_policy:manage']));
    const idp = { provider_type: 'oidc', issuer: 'https://idp.example.test', client_id: 'tessera', client_secret: 'a-secret-value-1234', email_domains: [tenant.domain], active: false };
    const refused: [string, string, unknown?][] = [
      ['POST', '/v1/me/password', { current_password: PASSWORD, new_password: 'a new password that is long enough' }],
      ['POST', '/v1/tokens', { name: 'successor', scopes: ['connections:read'], expires_in_days: 365 }],
      ['POST', `/v1/tokens/${pat.id}/rotate`],
      ['POST', '/v1/mfa/enroll/start', {}],
      ['POST', '/v1/mfa/enroll/confirm', { code: '123456' }],
      ['POST', '/v1/mfa/backup-codes/regen', {}],
      ['PATCH', `/v1/tenants/${tenant.tenantId}/mfa-policy`, { mfa_mode: 'OFF' }],
      ['POST', `/v1/tenants/${tenant.tenantId}/idp`, idp],
      ['PATCH', `/v1/tenants/${tenant.tenantId}/idp`, { active: false }],
      ['DELETE', `/v1/tenants/${tenant.tenantId}/idp`],
    ];
    for (const [method, path, body] of refused) {
      const res = await http.request(method, path, { token: pat.token, ...(body === undefined ? {} : { body }) });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body, `${method} ${path}`).toMatchObject({ code: 'forbidden', detail: expect.stringContaining('personal access token') });
    }
    // Nothing happened: the password is unchanged and no successor token exists.
    expect((await login(http, clock, tenant.admin.email)).accessToken).toBeTruthy();
    const tokens = (await http.request('GET', '/v1/tokens', { token: adminToken })).body as { tokens: { name: string }[] };
    expect(tokens.tokens.map((t) => t.name)).toContain('automation');
    expect(tokens.tokens.map((t) => t.name)).not.toContain('successor');
    // What it may do, it still does: reading, and revoking (itself included).
    expect((await http.request('GET', '/v1/tokens', { token: pat.token })).status).toBe(200);
    expect((await http.request('DELETE', `/v1/tokens/${pat.id}`, { token: pat.token })).status).toBe(204);
  });

  it('revocation kills the token; another user\'s token is not found', async () => {
    const pat = (await createPat(builderToken, { name: 'revoke-me', scopes: ['users:read'] })).body as Created;
    expect((await http.request('DELETE', `/v1/tokens/${pat.id}`, { token: adminToken })).status).toBe(404);
    expect((await http.request('DELETE', `/v1/tokens/${pat.id}`, { token: builderToken })).status).toBe(204);
    const res = await http.request('GET', '/v1/me', { token: pat.token });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ detail: 'The personal access token has been revoked' });
    const list = await http.request('GET', '/v1/tokens', { token: builderToken });
    expect((list.body as { tokens: { id: string; revoked_at: string | null }[] }).tokens.find((t) => t.id === pat.id)?.revoked_at).toBeTruthy();
    expect((await http.request('DELETE', '/v1/tokens/not-an-id', { token: builderToken })).status).toBe(400);
  });

  it('a token expires', async () => {
    const pat = (await createPat(builderToken, { name: 'short', scopes: ['users:read'], expires_in_days: 1 })).body as Created;
    expect((await http.request('GET', '/v1/me', { token: pat.token })).status).toBe(200);
    clock.advance(86_400 + 1);
    const res = await http.request('GET', '/v1/me', { token: pat.token });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ detail: 'The personal access token has expired' });
    builderToken = (await login(http, clock, `builder@${tenant.domain}`)).accessToken;
    adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
  });

  it('a look-alike with a bad checksum or an unknown token is refused', async () => {
    const pat = (await createPat(builderToken, { name: 'shape', scopes: ['users:read'] })).body as Created;
    const flipped = pat.token.slice(0, 12) + (pat.token[12] === 'A' ? 'B' : 'A') + pat.token.slice(13);
    expect(hasTokenShape('pat', flipped)).toBe(false); // refused by its checksum, before any lookup
    expect((await http.request('GET', '/v1/me', { token: flipped })).status).toBe(401);
    // Well formed, with a right checksum, but never issued: refused by the lookup.
    const unknown = generateOpaqueToken('pat');
    expect(hasTokenShape('pat', unknown)).toBe(true);
    const res = await http.request('GET', '/v1/me', { token: unknown });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'unauthenticated', detail: 'The personal access token is not valid' });
  });
});

describe('PATs under an MFA policy', () => {
  it('creating a PAT needs a recent MFA; a PAT itself never carries one', async () => {
    const strict = await createTestTenant(host.deps);
    const session = await login(http, clock, strict.admin.email, PASSWORD);
    const created = await createPat(session.accessToken, { name: 'with-mfa', scopes: ['tokens:manage', 'users:read'] });
    expect(created.status).toBe(201);
    const pat = (created.body as Created).token;
    // A PAT never creates one (403, whatever the policy); revoking, which the policy lists, it
    // may do only with a recent MFA, which it never carries.
    const viaPat = await createPat(pat, { name: 'from-pat', scopes: ['users:read'] });
    expect(viaPat.status).toBe(403);
    expect(viaPat.body).toMatchObject({ code: 'forbidden' });
    const revokeViaPat = await http.request('DELETE', `/v1/tokens/${(created.body as Created).id}`, { token: pat });
    expect(revokeViaPat.status).toBe(401);
    expect(revokeViaPat.body).toMatchObject({ code: 'mfa_required' });
    expect(revokeViaPat.headers['www-authenticate']).toContain('insufficient_user_authentication');

    // Ten minutes later the access token still works but no longer counts as a recent MFA.
    clock.advance(11 * 60);
    const stale = await createPat(session.accessToken, { name: 'stale', scopes: ['users:read'] });
    expect(stale.status).toBe(401);
    expect(stale.body).toMatchObject({ code: 'mfa_required' });
    expect(stale.headers['www-authenticate']).toBe('Bearer error="insufficient_user_authentication", error_description="A recent MFA is required"');
    expect((await http.request('GET', '/v1/me', { token: session.accessToken })).status).toBe(200);

    const stepUp = await http.request('POST', '/v1/mfa/challenge', { token: session.accessToken, body: { code: await totpCode(session.totpSecret!, clock.epochSeconds()) } });
    expect(stepUp.status).toBe(200);
    const stepped = stepUp.body as { access_token: string };
    expect((await createPat(stepped.access_token, { name: 'fresh', scopes: ['users:read'] })).status).toBe(201);
    // A PAT cannot step up.
    expect((await http.request('POST', '/v1/mfa/challenge', { token: pat, body: { code: '123456' } })).status).toBe(403);
  });
});
