/**
 * Account linking against a real OpenID Provider: an existing local user, signed in, links an
 * IdP identity by completing an SSO login started with a link intent; tenant admins list and
 * unlink a user's federated identities.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser } from '../support/browser';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, identityAuditEvents, login, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startOidcProvider, type LocalOidcProvider } from '../../infra/local/stand-ins/openid-provider';
import { ssoErrorOf } from '../support/sso-answers';
import { startTestHost, type TestHost } from '../support/test-host';

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
let adminToken: string;
let idp: LocalOidcProvider;
const CLIENT_SECRET = 'oidc-client-secret-for-linking-4b2e';
const BACK = 'https://console.example.com/sso/done';

beforeAll(async () => {
  host = await startTestHost({ clock });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
  const callback = `${host.url}/v1/auth/sso/${tenant.slug}/callback`;
  idp = await startOidcProvider({
    clients: [{ client_id: 'tessera', client_secret: CLIENT_SECRET, redirect_uris: [callback] }],
    accounts: {
      // The IdP account of the tenant admin (same email as the local account).
      admin: { email: tenant.admin.email },
      carol: { email: `carol@${tenant.domain}` },
      erinUnverified: { email: `erin@${tenant.domain}`, email_verified: false },
      frank: { email: `frank@${tenant.domain}` },
      jit: { email: `jit@${tenant.domain}` },
    },
  });
  const res = await http.request('POST', `/v1/tenants/${tenant.tenantId}/idp`, {
    token: adminToken,
    body: { provider_type: 'oidc', issuer: idp.issuer, client_id: 'tessera', client_secret: CLIENT_SECRET, email_domains: [tenant.domain], allowed_redirect_uris: [BACK], default_role: 'viewer', active: true },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
});
afterAll(async () => {
  await idp?.close();
  await host?.close();
});

async function startLogin(): Promise<string> {
  const res = await http.request('GET', `/v1/auth/sso/${tenant.slug}/start?redirect_uri=${encodeURIComponent(BACK)}`);
  expect(res.status, res.text).toBe(302);
  return res.headers.location!;
}

async function startLink(token: string, body: Record<string, unknown> = { redirect_uri: BACK }): Promise<string> {
  const res = await http.request('POST', '/v1/me/federated-identities/link', { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { authorization_url: string }).authorization_url;
}

/** Signs `account` in at the IdP and returns the URL the IdP sends the browser back to. */
async function authorizeAtIdp(authorizationUrl: string, account: string): Promise<string> {
  const browser = new Browser();
  const auth = await browser.get(authorizationUrl);
  expect(auth.location, auth.text).toMatch(/\/interaction\//);
  await browser.get(auth.location!);
  const submitted = await browser.postForm(auth.location!, { login: account, amr: 'pwd' });
  const resumed = await browser.get(submitted.location!);
  expect(resumed.location, resumed.text).toContain(`/v1/auth/sso/${tenant.slug}/callback`);
  return resumed.location!;
}

/** The redirect back to the client after a link: `linked=true` and the new identity's id. */
function linkedIdentityOf(res: { status: number; text: string; headers: Record<string, string | undefined> }): string {
  expect(res.status, res.text).toBe(302);
  const url = new URL(res.headers.location!);
  expect(`${url.origin}${url.pathname}`).toBe(BACK);
  expect(url.searchParams.get('error'), url.href).toBeNull();
  expect(url.searchParams.has('code')).toBe(false);
  expect(url.searchParams.get('linked')).toBe('true');
  return url.searchParams.get('federated_identity_id')!;
}

async function ssoSignIn(account: string) {
  const back = await http.request('GET', await authorizeAtIdp(await startLogin(), account));
  expect(back.status, back.text).toBe(302);
  const url = new URL(back.headers.location!);
  const code = url.searchParams.get('code');
  expect(code, url.href).toBeTruthy();
  const tokens = await http.request('POST', '/v1/auth/token', { body: { grant_type: 'sso_code', code } });
  expect(tokens.status).toBe(200);
  return tokens.body as { access_token: string };
}

interface FederatedIdentityView { id: string; provider_type: string; issuer: string; subject: string; created_at: string }

describe('account linking', () => {
  it('the SSO refusal of an existing local email names the link step, and that step exists', async () => {
    const refused = await http.request('GET', await authorizeAtIdp(await startLogin(), 'admin'));
    const description = ssoErrorOf(refused, BACK);
    expect(description).toContain('POST /v1/me/federated-identities/link');
    const document = await http.request('GET', '/v1/openapi.json');
    const paths = (document.body as { paths: Record<string, Record<string, unknown>> }).paths;
    expect(paths['/v1/me/federated-identities/link']?.post).toBeDefined();
  });

  it('a signed-in local user links an IdP identity, then signs in with it as the same user', async () => {
    const carolId = await createUser(http, adminToken, { email: `carol@${tenant.domain}`, role: 'connector_builder' });
    const carol = await login(http, clock, `carol@${tenant.domain}`);
    const answer = await http.request('GET', await authorizeAtIdp(await startLink(carol.accessToken, { redirect_uri: BACK, state: 'client-state-1' }), 'carol'));
    const identityId = linkedIdentityOf(answer);
    expect(identityId).toMatch(/^ext_/);
    expect(new URL(answer.headers.location!).searchParams.get('state')).toBe('client-state-1');

    // The SSO login of that identity is now Carol, with her role, and nobody new was provisioned.
    const tokens = await ssoSignIn('carol');
    const me = await http.request('GET', '/v1/me', { token: tokens.access_token });
    expect(me.body).toMatchObject({ id: carolId, role: 'connector_builder' });

    const mine = await http.request('GET', '/v1/me/federated-identities', { token: carol.accessToken });
    expect(mine.status).toBe(200);
    const items = (mine.body as { federated_identities: FederatedIdentityView[] }).federated_identities;
    expect(items).toEqual([{ id: identityId, provider_type: 'oidc', issuer: idp.issuer, subject: 'carol', created_at: expect.any(String) }]);
    const byAdmin = await http.request('GET', `/v1/users/${carolId}/federated-identities`, { token: adminToken });
    expect(byAdmin.status).toBe(200);
    expect((byAdmin.body as { federated_identities: FederatedIdentityView[] }).federated_identities.map((i) => i.id)).toEqual([identityId]);

    // Linking it again is the same link, not a second one.
    expect(linkedIdentityOf(await http.request('GET', await authorizeAtIdp(await startLink(carol.accessToken), 'carol')))).toBe(identityId);

    const events = await identityAuditEvents(host.deps, tenant.tenantId);
    const linked = events.filter((e) => e.action === 'federated_identity_linked' && e.target_id === carolId);
    expect(linked).toHaveLength(1);
    expect(linked[0]).toMatchObject({ actor_id: carolId, payload: { federated_identity_id: identityId, provider_type: 'oidc', idp_issuer: idp.issuer } });
    expect(events.filter((e) => e.action === 'user_provisioned' && (e.payload as { email?: string }).email === `carol@${tenant.domain}`)).toHaveLength(0);
  });

  it('refuses to link an identity whose email is not the user\'s, or is not verified', async () => {
    const erinId = await createUser(http, adminToken, { email: `erin@${tenant.domain}`, role: 'viewer' });
    const erin = await login(http, clock, `erin@${tenant.domain}`);
    // Frank's IdP account (another email) cannot become Erin's.
    const other = await http.request('GET', await authorizeAtIdp(await startLink(erin.accessToken), 'frank'));
    expect(ssoErrorOf(other, BACK)).toMatch(/another email/);
    // The same email, unverified at the IdP, does not prove it either.
    const unverified = await http.request('GET', await authorizeAtIdp(await startLink(erin.accessToken), 'erinUnverified'));
    expect(ssoErrorOf(unverified, BACK)).toMatch(/another email \(or an unverified one\)/);

    const list = await http.request('GET', `/v1/users/${erinId}/federated-identities`, { token: adminToken });
    expect((list.body as { federated_identities: unknown[] }).federated_identities).toEqual([]);
    const refusals = (await identityAuditEvents(host.deps, tenant.tenantId)).filter((e) => e.action === 'federated_identity_link_refused' && e.target_id === erinId);
    expect(refusals.map((e) => (e.payload as { reason: string }).reason)).toEqual(['email_mismatch', 'email_mismatch']);
    // Frank's first SSO login then provisions Frank, not Erin.
    const frank = await ssoSignIn('frank');
    const me = await http.request('GET', '/v1/me', { token: frank.access_token });
    expect((me.body as { id: string; email: string }).email).toBe(`frank@${tenant.domain}`);
    expect((me.body as { id: string }).id).not.toBe(erinId);
  });

  it('refuses to link an identity that is already another user\'s', async () => {
    // jit@ signs in first: provisioned, the identity is the new user's.
    const jit = await ssoSignIn('jit');
    const jitMe = await http.request('GET', '/v1/me', { token: jit.access_token });
    const jitId = (jitMe.body as { id: string }).id;
    // The admin tries to take it over (the email check aside, the link itself is refused first).
    const refused = await http.request('GET', await authorizeAtIdp(await startLink(adminToken), 'jit'));
    expect(ssoErrorOf(refused, BACK)).toMatch(/already linked to another account/);
    const again = await ssoSignIn('jit');
    expect(((await http.request('GET', '/v1/me', { token: again.access_token })).body as { id: string }).id).toBe(jitId);
    const adminList = await http.request('GET', '/v1/me/federated-identities', { token: adminToken });
    expect((adminList.body as { federated_identities: unknown[] }).federated_identities).toEqual([]);
  });

  it('the link start needs an interactive session and an allowed redirect URI', async () => {
    expect((await http.request('POST', '/v1/me/federated-identities/link', { body: { redirect_uri: BACK } })).status).toBe(401);
    const pat = await http.request('POST', '/v1/tokens', { token: adminToken, body: { name: 'automation', scopes: ['users:read'] } });
    expect(pat.status, JSON.stringify(pat.body)).toBe(201);
    const byPat = await http.request('POST', '/v1/me/federated-identities/link', { token: (pat.body as { token: string }).token, body: { redirect_uri: BACK } });
    expect(byPat.status).toBe(403);
    const foreign = await http.request('POST', '/v1/me/federated-identities/link', { token: adminToken, body: { redirect_uri: 'https://evil.example/steal' } });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toMatchObject({ code: 'validation_failed', errors: [{ path: 'redirect_uri' }] });
    expect((await http.request('POST', '/v1/me/federated-identities/link', { token: adminToken, body: { redirect_uri: BACK, extra: 1 } })).status).toBe(400);
  });

  it('tenant admins unlink (audited); the IdP account then no longer signs in as that user', async () => {
    const holly = `holly@${tenant.domain}`;
    const hollyId = await createUser(http, adminToken, { email: holly, role: 'viewer' });
    // Carol (created here unless an earlier test of this file did) links her IdP account.
    const carolId = ((await http.request('GET', '/v1/users?limit=100', { token: adminToken })).body as { users: { id: string; email: string }[] }).users.find((u) => u.email === `carol@${tenant.domain}`)?.id
      ?? await createUser(http, adminToken, { email: `carol@${tenant.domain}`, role: 'viewer' });
    const carol = await login(http, clock, `carol@${tenant.domain}`);
    const identityId = linkedIdentityOf(await http.request('GET', await authorizeAtIdp(await startLink(carol.accessToken), 'carol')));

    // Not by a non-admin, not for another user's path, not an unknown id.
    const viewer = await login(http, clock, holly);
    expect((await http.request('GET', `/v1/users/${carolId}/federated-identities`, { token: viewer.accessToken })).status).toBe(403);
    expect((await http.request('DELETE', `/v1/users/${carolId}/federated-identities/${identityId}`, { token: viewer.accessToken })).status).toBe(403);
    expect((await http.request('DELETE', `/v1/users/${hollyId}/federated-identities/${identityId}`, { token: adminToken })).status).toBe(404);
    expect((await http.request('DELETE', `/v1/users/${carolId}/federated-identities/ext_00000000000000000000000000`, { token: adminToken })).status).toBe(404);
    expect((await http.request('DELETE', `/v1/users/${carolId}/federated-identities/not-an-id`, { token: adminToken })).status).toBe(400);
    expect((await http.request('GET', '/v1/users/usr_00000000000000000000000000/federated-identities', { token: adminToken })).status).toBe(404);

    // Another tenant's admin does not find Carol at all.
    const elsewhere = await createTestTenant(host.deps, { mfaMode: 'OFF' });
    const elsewhereToken = (await login(http, clock, elsewhere.admin.email)).accessToken;
    expect((await http.request('GET', `/v1/users/${carolId}/federated-identities`, { token: elsewhereToken })).status).toBe(404);
    expect((await http.request('DELETE', `/v1/users/${carolId}/federated-identities/${identityId}`, { token: elsewhereToken })).status).toBe(404);

    const unlinked = await http.request('DELETE', `/v1/users/${carolId}/federated-identities/${identityId}`, { token: adminToken });
    expect(unlinked.status, unlinked.text).toBe(204);
    expect((await http.request('DELETE', `/v1/users/${carolId}/federated-identities/${identityId}`, { token: adminToken })).status).toBe(404);
    const after = await http.request('GET', `/v1/users/${carolId}/federated-identities`, { token: adminToken });
    expect((after.body as { federated_identities: unknown[] }).federated_identities).toEqual([]);

    // The IdP account is a stranger again: its SSO login meets the local email and is refused.
    const refused = await http.request('GET', await authorizeAtIdp(await startLogin(), 'carol'));
    expect(ssoErrorOf(refused, BACK)).toContain('POST /v1/me/federated-identities/link');

    const events = await identityAuditEvents(host.deps, tenant.tenantId);
    expect(events.find((e) => e.action === 'federated_identity_unlinked' && e.target_id === carolId)).toMatchObject({
      actor_id: tenant.admin.id, payload: { federated_identity_id: identityId, provider_type: 'oidc', idp_issuer: idp.issuer },
    });
  });
});
