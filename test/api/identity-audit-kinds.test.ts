/**
 * Every kind of identity event reaches the tenant's audit log. The kinds come from the one
 * catalogue (`shared/audit/identity-audit-actions.ts`); each step below drives its events
 * through the HTTP surface (the tenant itself through the operator's path), and the events
 * each step wrote are read back from `GET /v1/tenants/{id}/audit-events`. A writer that stops
 * writing its event fails its step; a kind added to the catalogue without a step fails the
 * coverage check (add a step for it here).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityAuditActionNames, type IdentityAuditAction } from '../../shared/audit/identity-audit-actions';
import { setTenantLicense } from '../../shared/connections/integration-licenses';
import { totpCode } from '../../shared/crypto/totp';
import { keys } from '../../shared/store/keys';
import type { ChainLink } from '../../shared/store/table-client';
import { Browser } from '../support/browser';
import { startDnsServer, type TestDnsServer } from '../support/dns-server';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, identityAuditEvents, login, PASSWORD, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startOidcProvider, type LocalOidcProvider } from '../../infra/local/stand-ins/openid-provider';
import { readOutbox, resetTokenOf } from '../support/outbox';
import { startTestHost, type TestHost } from '../support/test-host';

interface Event { event_id: string; seq: number; action: string; actor_id: string | null; target_id: string; source_ip: string | null; payload: Record<string, unknown> }
interface Step { name: string; produces: IdentityAuditAction[]; run(): Promise<void> }

let host: TestHost;
let dns: TestDnsServer;
let http: HttpClient;
const clock = new MovableClock();
let idp: LocalOidcProvider | undefined;
let tenant: TestTenant;
let totpSecret = '';
/** Written by the operator's path (CLI, bootstrap), not by a request: no source address. */
const OPERATOR_ACTIONS = new Set<string>(['tenant_created', 'tenant_license_changed']);
const NEW_PASSWORD = 'a different long passphrase 42';
const BACK = 'https://console.example.com/sso/done';
const CLIENT_SECRET = 'oidc-client-secret-for-tessera-kinds';
/** What the steps hand on to each other. */
const s = { sessionA: { access: '', refresh: '' }, sessionB: { access: '', refresh: '' }, userId: '', workspaceId: '', patId: '', pat: '', endedRefresh: '' };

async function code(): Promise<string> {
  const c = await totpCode(totpSecret, clock.epochSeconds());
  clock.advance(30); // one code per step
  return c;
}
function expectStatus(res: { status: number; body: unknown }, status: number) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body as Record<string, unknown>;
}
async function passwordLogin(password = PASSWORD): Promise<string> {
  const body = expectStatus(await http.request('POST', '/v1/auth/login', { body: { email: tenant.admin.email, password } }), 200);
  expect(body.mfa_required).toBe(true);
  return body.mfa_token as string;
}
async function headSeq(): Promise<number> {
  return tenant ? ((await host.deps.table.get<ChainLink>(keys.identityAuditChainHead(tenant.tenantId)))?.seq ?? 0) : 0;
}

const steps: Step[] = [
  {
    name: 'the operator creates the tenant',
    produces: ['tenant_created'],
    run: async () => {
      tenant = await createTestTenant(host.deps, { mfaMode: 'REQUIRED', requiredActions: ['LOGIN'] });
    },
  },
  {
    name: 'the operator licenses integrations',
    produces: ['tenant_license_changed'],
    run: async () => {
      await setTenantLicense(host.deps, tenant.tenantId, ['int_okta_discovery']);
    },
  },
  {
    name: 'the first login enrolls TOTP, a wrong code first',
    produces: ['login_mfa_pending', 'mfa_enrollment_failed', 'mfa_enrolled'],
    run: async () => {
      const mfaToken = await passwordLogin();
      totpSecret = expectStatus(await http.request('POST', '/v1/mfa/enroll/start', { body: { mfa_token: mfaToken } }), 200).secret as string;
      expectStatus(await http.request('POST', '/v1/mfa/enroll/confirm', { body: { mfa_token: mfaToken, code: '000000' === (await totpCode(totpSecret, clock.epochSeconds())) ? '111111' : '000000' } }), 401);
      const done = expectStatus(await http.request('POST', '/v1/mfa/enroll/confirm', { body: { mfa_token: mfaToken, code: await code() } }), 200);
      s.sessionA = { access: done.access_token as string, refresh: done.refresh_token as string };
    },
  },
  {
    name: 'a wrong password',
    produces: ['login_failed'],
    run: async () => {
      expectStatus(await http.request('POST', '/v1/auth/login', { body: { email: tenant.admin.email, password: 'not the password at all' } }), 401);
    },
  },
  {
    name: 'a login answers the challenge, a wrong code first',
    produces: ['login_mfa_pending', 'mfa_challenge_failed', 'login_succeeded'],
    run: async () => {
      const mfaToken = await passwordLogin();
      const wrong = (await totpCode(totpSecret, clock.epochSeconds())) === '000000' ? '111111' : '000000';
      expectStatus(await http.request('POST', '/v1/mfa/challenge', { body: { mfa_token: mfaToken, code: wrong } }), 401);
      const done = expectStatus(await http.request('POST', '/v1/mfa/challenge', { body: { mfa_token: mfaToken, code: await code() } }), 200);
      s.sessionB = { access: done.access_token as string, refresh: done.refresh_token as string };
    },
  },
  {
    name: 'a step-up',
    produces: ['mfa_step_up'],
    run: async () => {
      s.sessionB.access = expectStatus(await http.request('POST', '/v1/mfa/challenge', { token: s.sessionB.access, body: { code: await code() } }), 200).access_token as string;
    },
  },
  {
    name: 'new backup codes',
    produces: ['mfa_backup_codes_regenerated'],
    run: async () => {
      expectStatus(await http.request('POST', '/v1/mfa/backup-codes/regen', { token: s.sessionB.access }), 200);
    },
  },
  {
    name: 'an MFA policy change',
    produces: ['mfa_policy_updated'],
    run: async () => {
      expectStatus(await http.request('PATCH', `/v1/tenants/${tenant.tenantId}/mfa-policy`, { token: s.sessionB.access, body: { required_actions: ['LOGIN', 'REVOKE_PAT'] } }), 200);
    },
  },
  {
    name: 'a user is created, gets another role, is disabled and enabled',
    produces: ['user_created', 'user_updated', 'user_disabled', 'user_enabled'],
    run: async () => {
      s.userId = expectStatus(await http.request('POST', '/v1/users', { token: s.sessionB.access, body: { email: `user@${tenant.domain}`, role: 'viewer', password: PASSWORD } }), 201).id as string;
      expectStatus(await http.request('PATCH', `/v1/users/${s.userId}`, { token: s.sessionB.access, body: { role: 'connector_builder' } }), 200);
      expectStatus(await http.request('POST', `/v1/users/${s.userId}/disable`, { token: s.sessionB.access }), 200);
      expectStatus(await http.request('POST', `/v1/users/${s.userId}/enable`, { token: s.sessionB.access }), 200);
    },
  },
  {
    name: "the user signs in (enrolling) and a tenant admin resets the user's MFA",
    produces: ['mfa_reset'],
    run: async () => {
      // The user's own sign-in enrolls (REQUIRED), so the reset has an authenticator to remove.
      const pending = expectStatus(await http.request('POST', '/v1/auth/login', { body: { email: `user@${tenant.domain}`, password: PASSWORD } }), 200);
      const userMfaToken = pending.mfa_token as string;
      const secret = expectStatus(await http.request('POST', '/v1/mfa/enroll/start', { body: { mfa_token: userMfaToken } }), 200).secret as string;
      expectStatus(await http.request('POST', '/v1/mfa/enroll/confirm', { body: { mfa_token: userMfaToken, code: await totpCode(secret, clock.epochSeconds()) } }), 200);
      const res = await http.request('POST', `/v1/users/${s.userId}/mfa/reset`, { token: s.sessionB.access });
      expect(res.status, res.text).toBe(204);
    },
  },
  {
    name: 'a workspace is created and handed to the user (a promotion)',
    produces: ['workspace_created', 'workspace_owner_transferred', 'user_updated'],
    run: async () => {
      s.workspaceId = expectStatus(await http.request('POST', '/v1/workspaces', { token: s.sessionB.access, body: { name: 'Audited' } }), 201).id as string;
      expectStatus(await http.request('POST', `/v1/workspaces/${s.workspaceId}/owner-transfer`, { token: s.sessionB.access, body: { new_owner_id: s.userId } }), 200);
    },
  },
  {
    name: 'a personal access token is created and used',
    produces: ['token_created', 'token_used'],
    run: async () => {
      const created = expectStatus(await http.request('POST', '/v1/tokens', { token: s.sessionB.access, body: { name: 'automation', scopes: ['users:read'], expires_in_days: 7 } }), 201);
      s.patId = created.id as string;
      s.pat = created.token as string;
      expectStatus(await http.request('GET', '/v1/me', { token: s.pat }), 200);
    },
  },
  {
    name: 'the token is rotated, and its successor revoked',
    produces: ['token_rotated', 'token_revoked'],
    run: async () => {
      const rotated = expectStatus(await http.request('POST', `/v1/tokens/${s.patId}/rotate`, { token: s.sessionB.access }), 201);
      const revoke = await http.request('DELETE', `/v1/tokens/${rotated.id as string}`, { token: s.sessionB.access });
      expect(revoke.status, revoke.text).toBe(204);
    },
  },
  {
    name: 'a refresh token is exchanged',
    produces: ['token_used'],
    run: async () => {
      expectStatus(await http.request('POST', '/v1/auth/token', { body: { grant_type: 'refresh_token', refresh_token: s.sessionB.refresh } }), 200);
    },
  },
  {
    name: 'a used refresh token comes back',
    produces: ['refresh_token_reused'],
    run: async () => {
      // A session of its own (the logout step ends it too): a reuse also ends its session's
      // access tokens, and later steps use A's and B's.
      const mfaToken = await passwordLogin();
      const reused = expectStatus(await http.request('POST', '/v1/mfa/challenge', { body: { mfa_token: mfaToken, code: await code() } }), 200);
      const grant = { grant_type: 'refresh_token', refresh_token: reused.refresh_token as string };
      s.endedRefresh = expectStatus(await http.request('POST', '/v1/auth/token', { body: grant }), 200).refresh_token as string;
      expectStatus(await http.request('POST', '/v1/auth/token', { body: grant }), 401);
    },
  },
  {
    name: 'a logout',
    produces: ['logout'],
    run: async () => {
      // The reuse step's session: a logout also ends its session's access tokens, and later steps use A's and B's.
      const res = await http.request('POST', '/v1/auth/logout', { body: { refresh_token: s.endedRefresh } });
      expect(res.status, res.text).toBe(204);
    },
  },
  {
    name: 'an IdP is configured, changed, provisions a user just in time, links the admin (a refusal first), and is removed',
    produces: ['idp_config_created', 'idp_config_updated', 'user_provisioned', 'federated_identity_link_refused', 'federated_identity_linked', 'federated_identity_unlinked', 'idp_config_deleted'],
    run: async () => {
      idp = await startOidcProvider({
        clients: [{ client_id: 'tessera', client_secret: CLIENT_SECRET, redirect_uris: [`${host.url}/v1/auth/sso/${tenant.slug}/callback`] }],
        accounts: { jit: { email: `jit@${tenant.domain}` }, admin: { email: tenant.admin.email } },
      });
      const token = s.sessionA.access;
      const body = { provider_type: 'oidc', issuer: idp.issuer, client_id: 'tessera', client_secret: CLIENT_SECRET, email_domains: [tenant.domain], allowed_redirect_uris: [BACK], default_role: 'viewer', active: true };
      expectStatus(await http.request('POST', `/v1/tenants/${tenant.tenantId}/idp`, { token, body }), 201);
      expectStatus(await http.request('PATCH', `/v1/tenants/${tenant.tenantId}/idp`, { token, body: { default_role: 'connector_builder' } }), 200);
      const start = await http.request('GET', `/v1/auth/sso/${tenant.slug}/start?redirect_uri=${encodeURIComponent(BACK)}`);
      expect(start.status, start.text).toBe(302);
      const browser = new Browser();
      const auth = await browser.get(start.headers.location!);
      const submitted = await browser.postForm(auth.location!, { login: 'jit', amr: 'pwd otp', acr: 'urn:test:loa:2' });
      const resumed = await browser.get(submitted.location!);
      const back = await http.request('GET', resumed.location!);
      expect(back.status, back.text).toBe(302);
      expect(new URL(back.headers.location!).searchParams.get('code')).toBeTruthy();
      // The admin links an IdP identity: the JIT user's (another email) is refused, their own is linked, then unlinked.
      const link = async (account: string) => {
        const started = expectStatus(await http.request('POST', '/v1/me/federated-identities/link', { token, body: { redirect_uri: BACK } }), 200);
        const linkBrowser = new Browser();
        const linkAuth = await linkBrowser.get(started.authorization_url as string);
        const linkSubmitted = await linkBrowser.postForm(linkAuth.location!, { login: account, amr: 'pwd otp', acr: 'urn:test:loa:2' });
        const linkResumed = await linkBrowser.get(linkSubmitted.location!);
        const answer = await http.request('GET', linkResumed.location!);
        expect(answer.status, answer.text).toBe(302);
        return new URL(answer.headers.location!).searchParams;
      };
      expect((await link('jit')).get('error')).toBe('access_denied');
      const identityId = (await link('admin')).get('federated_identity_id');
      expect(identityId).toMatch(/^ext_/);
      const unlinked = await http.request('DELETE', `/v1/users/${tenant.admin.id}/federated-identities/${identityId}`, { token });
      expect(unlinked.status, unlinked.text).toBe(204);
      const removed = await http.request('DELETE', `/v1/tenants/${tenant.tenantId}/idp`, { token });
      expect(removed.status, removed.text).toBe(204);
    },
  },
  {
    name: 'an email domain is added, fails its DNS check, is verified and removed',
    produces: ['domain_added', 'domain_verification_failed', 'domain_verified', 'domain_removed'],
    run: async () => {
      const domain = `proof-${tenant.slug}.example`;
      const path = `/v1/tenants/${tenant.tenantId}/domains`;
      const added = expectStatus(await http.request('POST', path, { token: s.sessionB.access, body: { domain } }), 201);
      const verification = added.verification as { name: string; value: string };
      expectStatus(await http.request('POST', `${path}/${domain}/verify`, { token: s.sessionB.access }), 409);
      dns.zone.set(verification.name, [verification.value]);
      expectStatus(await http.request('POST', `${path}/${domain}/verify`, { token: s.sessionB.access }), 200);
      const removed = await http.request('DELETE', `${path}/${domain}`, { token: s.sessionB.access });
      expect(removed.status, removed.text).toBe(204);
    },
  },
  {
    name: 'a reset link is sent and used',
    produces: ['password_reset_requested', 'password_reset'],
    run: async () => {
      const before = (await readOutbox(host.config.outboxDir)).length;
      expect((await http.request('POST', '/v1/auth/password/forgot', { body: { email: `user@${tenant.domain}` } })).status).toBe(202);
      const mail = (await readOutbox(host.config.outboxDir)).slice(before);
      expect(mail).toHaveLength(1);
      const res = await http.request('POST', '/v1/auth/password/reset', { body: { token: resetTokenOf(mail[0]!), new_password: NEW_PASSWORD } });
      expect(res.status, res.text).toBe(204);
    },
  },
  {
    name: 'a password change, a wrong current password first',
    produces: ['password_change_failed', 'password_changed'],
    run: async () => {
      const token = s.sessionA.access;
      expectStatus(await http.request('POST', '/v1/me/password', { token, body: { current_password: 'not the password at all', new_password: NEW_PASSWORD } }), 401);
      const res = await http.request('POST', '/v1/me/password', { token, body: { current_password: PASSWORD, new_password: NEW_PASSWORD } });
      expect(res.status, res.text).toBe(204);
    },
  },
];

beforeAll(async () => {
  dns = await startDnsServer();
  host = await startTestHost({ clock, env: { TESSERA_DNS_RESOLVER: dns.address, TESSERA_DNS_TIMEOUT_MS: '1000' } });
  http = api(host.url);
});
afterAll(async () => {
  await idp?.close();
  await host?.close();
  await dns?.close();
});

describe('every identity event kind', () => {
  it('has a step driving it', () => {
    const driven = new Set(steps.flatMap((step) => step.produces));
    expect(identityAuditActionNames.filter((action) => !driven.has(action))).toEqual([]);
  });

  it('is written by its step and read back from the tenant audit log', async () => {
    const ranges: { step: Step; after: number; upTo: number }[] = [];
    for (const step of steps) {
      const after = await headSeq();
      await step.run();
      ranges.push({ step, after, upTo: await headSeq() });
    }
    // The admin signs in again (the password changed) and reads the whole log.
    const mfaToken = await passwordLogin(NEW_PASSWORD);
    const reader = expectStatus(await http.request('POST', '/v1/mfa/challenge', { body: { mfa_token: mfaToken, code: await code() } }), 200).access_token as string;
    const events: Event[] = [];
    let cursor: string | null = null;
    do {
      const page = expectStatus(await http.request('GET', `/v1/tenants/${tenant.tenantId}/audit-events?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token: reader }), 200);
      events.push(...(page.audit_events as Event[]));
      cursor = page.next_cursor as string | null;
    } while (cursor);

    for (const { step, after, upTo } of ranges) {
      const written = events.filter((e) => e.seq > after && e.seq <= upTo).map((e) => e.action);
      expect(written, step.name).toEqual(expect.arrayContaining(step.produces));
    }
    // Each kind is found by the action filter too, with its source address where a request made it.
    for (const action of identityAuditActionNames) {
      const page = expectStatus(await http.request('GET', `/v1/tenants/${tenant.tenantId}/audit-events?action=${action}&limit=1`, { token: reader }), 200);
      const [event] = page.audit_events as Event[];
      expect(event?.action, action).toBe(action);
      if (!OPERATOR_ACTIONS.has(action)) expect(event?.source_ip, action).toEqual(expect.any(String));
    }
    const failed = events.find((e) => e.action === 'login_failed')!;
    expect(failed.payload).toMatchObject({ method: 'password', reason: expect.any(String) });
    const used = events.filter((e) => e.action === 'token_used').map((e) => e.payload.kind).sort();
    // One PAT use (audited once an hour) and two refreshes: the exchange step's and, before its reuse, the reuse step's own.
    expect(used).toEqual(['pat', 'refresh', 'refresh']);
  });

  it("audits a PAT's use at most once an hour per token, and every refresh", async () => {
    const own = await createTestTenant(host.deps, { mfaMode: 'OFF' });
    const session = await login(http, clock, own.admin.email);
    const created = expectStatus(await http.request('POST', '/v1/tokens', { token: session.accessToken, body: { name: 'ci', scopes: ['users:read'], expires_in_days: 7 } }), 201);
    const uses = async () => (await identityAuditEvents(host.deps, own.tenantId)).filter((e) => e.action === 'token_used' && e.target_id === created.id);
    for (let i = 0; i < 3; i++) expectStatus(await http.request('GET', '/v1/me', { token: created.token as string }), 200);
    expect(await uses()).toHaveLength(1);
    clock.advance(59 * 60);
    expectStatus(await http.request('GET', '/v1/me', { token: created.token as string }), 200);
    expect(await uses()).toHaveLength(1);
    clock.advance(60);
    await Promise.all([1, 2, 3].map(async () => expectStatus(await http.request('GET', '/v1/me', { token: created.token as string }), 200)));
    expect(await uses()).toHaveLength(2);

    let refresh = session.refreshToken;
    for (let i = 0; i < 2; i++) refresh = expectStatus(await http.request('POST', '/v1/auth/token', { body: { grant_type: 'refresh_token', refresh_token: refresh } }), 200).refresh_token as string;
    const refreshes = (await identityAuditEvents(host.deps, own.tenantId)).filter((e) => e.action === 'token_used' && e.payload.kind === 'refresh');
    expect(refreshes).toHaveLength(2);
  });
});
