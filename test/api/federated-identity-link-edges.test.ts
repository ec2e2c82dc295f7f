/**
 * Linking a federated identity at its edges, at the callback's domain function (the full SSO
 * round trip is `test/peers/sso-account-linking.test.ts`): an account disabled before the
 * callback, an IdP answer without an email, and a parallel link of the same identity landing
 * first (to this account: the same answer; to another: 409), and an unlink racing another.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { linkFederatedIdentity } from '../../shared/identity/sso/federated-identities';
import type { FederatedLogin } from '../../shared/identity/sso/federated-users';
import type { IdpConfigRecord } from '../../shared/store/records';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, identityAuditEvents, login, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';
import { beforeNextTransaction } from '../support/races';

let host: TestHost;
let http: HttpClient;
const clock = new MovableClock();
let tenant: TestTenant;
let adminToken: string;
let idp: IdpConfigRecord;
let users = 0;
const ISSUER = 'https://idp.example.com';

beforeAll(async () => {
  host = await startTestHost({ clock });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
  // The link reads only the configuration's tenant.
  idp = { tenant_id: tenant.tenantId } as IdpConfigRecord;
});
afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(async () => {
  await host?.close();
});

async function newUser(): Promise<{ id: string; email: string }> {
  const email = `user${++users}@${tenant.domain}`;
  return { id: await createUser(http, adminToken, { email, role: 'viewer' }), email };
}
const loginOf = (subject: string, email: string | undefined): FederatedLogin => ({ providerType: 'oidc', issuer: ISSUER, subject, email, emailVerified: true, amr: ['pwd'], acr: undefined, authTime: undefined });
const link = (subject: string, user: { id: string; email: string }) => linkFederatedIdentity(host.deps, idp, loginOf(subject, user.email), user.id, '127.0.0.1');
const identitiesOf = async (userId: string) => ((await http.request('GET', `/v1/users/${userId}/federated-identities`, { token: adminToken })).body as { federated_identities: { id: string }[] }).federated_identities;
const refusals = async (userId: string) => (await identityAuditEvents(host.deps, tenant.tenantId)).filter((e) => e.action === 'federated_identity_link_refused' && e.target_id === userId).map((e) => e.payload.reason);

describe('linking a federated identity at its edges', () => {
  it('an account disabled before the callback links nothing', async () => {
    const user = await newUser();
    expect((await http.request('POST', `/v1/users/${user.id}/disable`, { token: adminToken })).status).toBe(200);
    await expect(link('sub-disabled', user)).rejects.toMatchObject({ code: 'forbidden', message: 'The account that started the link is not active' });
    expect(await identitiesOf(user.id)).toEqual([]);
    expect(await refusals(user.id)).toEqual(['user_not_active']);
  });

  it('an IdP answer without an email links nothing', async () => {
    const user = await newUser();
    await expect(linkFederatedIdentity(host.deps, idp, loginOf('sub-no-email', undefined), user.id, '127.0.0.1')).rejects.toMatchObject({ code: 'forbidden' });
    expect(await identitiesOf(user.id)).toEqual([]);
    expect(await refusals(user.id)).toEqual(['email_mismatch']);
  });

  it('a parallel link of the identity to the same account landing first: the same answer, linked once', async () => {
    const user = await newUser();
    let first: { id: string } | undefined;
    beforeNextTransaction(host.deps, async () => {
      first = await link('sub-twice', user);
    });
    const second = await link('sub-twice', user);
    expect(second.id).toBe(first!.id);
    expect((await identitiesOf(user.id)).map((i) => i.id)).toEqual([first!.id]);
  });

  it('a parallel link of the identity to another account landing first: 409, audited', async () => {
    const mine = await newUser();
    const theirs = await newUser();
    // The IdP vouches for both emails in this race; only the first link stands.
    beforeNextTransaction(host.deps, () => link('sub-contested', theirs));
    await expect(link('sub-contested', mine)).rejects.toMatchObject({ code: 'conflict' });
    expect(await identitiesOf(mine.id)).toEqual([]);
    expect(await identitiesOf(theirs.id)).toHaveLength(1);
    expect(await refusals(mine.id)).toEqual(['identity_linked_to_another_user']);
  });

  it('an unlink that another lands before is a 404, unlinked once', async () => {
    const user = await newUser();
    const linked = await link('sub-unlink', user);
    const unlink = () => http.request('DELETE', `/v1/users/${user.id}/federated-identities/${linked.id}`, { token: adminToken });
    beforeNextTransaction(host.deps, async () => expect((await unlink()).status).toBe(204));
    const res = await unlink();
    expect(res.status, JSON.stringify(res.body)).toBe(404);
    expect((await identityAuditEvents(host.deps, tenant.tenantId)).filter((e) => e.action === 'federated_identity_unlinked' && e.target_id === user.id)).toHaveLength(1);
  });
});
