/**
 * Linking an identity provider account from the console's account page, at a real OpenID
 * Provider (oidc-provider, its login form in the browser): a password user links theirs and
 * sees it listed; a refusal at the IdP and the API's refusal of an account already linked to
 * someone else are shown on the account page; with SSO switched off the action gives way to a
 * sentence. The IdP routes no email domain, so these users sign in to the console with a password.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, launchBrowser, openConsole, signInWithPassword, startConsoleHost } from '../support/console-browser';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, login, PASSWORD, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startOidcProvider, type TestOidcProvider } from '../support/oidc-provider';
import type { TestHost } from '../support/test-host';

const clock = new MovableClock();
const CLIENT_SECRET = 'oidc-client-secret-for-console-linking';
let host: TestHost;
let http: HttpClient;
let tenant: TestTenant;
let adminToken: string;
let idp: TestOidcProvider;
let browser: Browser;
let carol: string;
let dave: string;

beforeAll(async () => {
  host = await startConsoleHost({ clock });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
  carol = `carol@${tenant.domain}`;
  dave = `dave@${tenant.domain}`;
  await createUser(http, adminToken, { email: carol, role: 'viewer' });
  await createUser(http, adminToken, { email: dave, role: 'viewer' });
  idp = await startOidcProvider({
    clients: [{ client_id: 'tessera', client_secret: CLIENT_SECRET, redirect_uris: [`${host.url}/v1/auth/sso/${tenant.slug}/callback`] }],
    accounts: { carol: { email: carol } },
  });
  // The console's own return path is the redirect URI the settings page registers for sign-in; linking comes back there too.
  const created = await http.request('POST', `/v1/tenants/${tenant.tenantId}/idp`, {
    token: adminToken,
    body: { provider_type: 'oidc', issuer: idp.issuer, client_id: 'tessera', client_secret: CLIENT_SECRET, email_domains: [], allowed_redirect_uris: [`${host.url}/sign-in/sso`], active: true },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await idp?.close();
  await host?.close();
});

interface FederatedIdentityView { id: string; provider_type: string; issuer: string; subject: string }

async function identitiesOf(email: string): Promise<FederatedIdentityView[]> {
  const token = (await login(http, clock, email)).accessToken;
  const res = await http.request('GET', '/v1/me/federated-identities', { token });
  expect(res.status).toBe(200);
  return (res.body as { federated_identities: FederatedIdentityView[] }).federated_identities;
}

async function openAccount(page: Page, email: string): Promise<void> {
  await signInWithPassword(page, email, PASSWORD);
  await page.waitForURL('**/connections');
  await page.getByRole('link', { name: 'Your account' }).click();
  await page.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
}

/** From the account page to the IdP's login form, and there either sign in as `account` or cancel. */
async function linkAtIdp(page: Page, answer: { account: string } | 'cancel', screenshot?: string): Promise<void> {
  await page.getByRole('button', { name: 'Link an identity provider account' }).click();
  await page.waitForURL(`${idp.issuer}/interaction/**`);
  await page.getByRole('heading', { name: 'Test IdP: sign in' }).waitFor();
  if (screenshot) await checkPage(page, screenshot);
  if (answer === 'cancel') {
    await page.getByRole('button', { name: 'Cancel' }).click();
  } else {
    await page.getByLabel('Username').fill(answer.account);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await page.waitForURL(`${host.url}/account`);
  await page.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
}

describe('the console, linking an identity provider account', () => {
  it('links a password user\'s IdP account and lists it; a cancel at the IdP is reported', async () => {
    const { page, errors } = await openConsole(browser, host.url);
    await openAccount(page, carol);
    await page.getByText('No identity provider account is linked to you.').waitFor();
    await checkPage(page, 'identity-link-none');

    // Cancelled at the IdP: the IdP's access_denied comes back as the API's description.
    await linkAtIdp(page, 'cancel', 'identity-link-idp');
    const refusal = page.getByRole('alert').filter({ hasText: 'was not linked' });
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('The identity provider did not sign you in (access_denied)');
    await page.getByText('No identity provider account is linked to you.').waitFor();
    await checkPage(page, 'identity-link-cancelled');
    expect(await identitiesOf(carol)).toEqual([]);

    await linkAtIdp(page, { account: 'carol' });
    await page.getByRole('status').filter({ hasText: 'Your identity provider account is linked' }).waitFor();
    const row = page.getByRole('table', { name: 'Identity provider accounts linked to you' }).getByRole('row').filter({ hasText: idp.issuer });
    expect(await row.getByRole('cell').allTextContents()).toEqual(['OIDC', idp.issuer, 'carol', expect.any(String)]);
    await checkPage(page, 'identity-link-linked');
    expect(await identitiesOf(carol)).toMatchObject([{ provider_type: 'oidc', issuer: idp.issuer, subject: 'carol' }]);

    // The outcome is shown once: the page visited again shows the list alone.
    await page.reload();
    await row.waitFor();
    expect(await page.getByText('Your identity provider account is linked').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('shows the API\'s refusal of an IdP account linked to someone else, and no action once SSO is off', async () => {
    const { page, errors } = await openConsole(browser, host.url);
    await openAccount(page, dave);
    // Carol's IdP account (linked to her by the test above, or here when this test runs alone).
    if ((await identitiesOf(carol)).length === 0) {
      const other = await openConsole(browser, host.url);
      await openAccount(other.page, carol);
      await linkAtIdp(other.page, { account: 'carol' });
      await other.page.context().close();
    }
    await linkAtIdp(page, { account: 'carol' });
    const refusal = page.getByRole('alert').filter({ hasText: 'was not linked' });
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('This identity provider account is already linked to another account of the tenant');
    await page.getByText('No identity provider account is linked to you.').waitFor();
    await checkPage(page, 'identity-link-refused');
    expect(await identitiesOf(dave)).toEqual([]);

    // SSO switched off: the link call's 404 replaces the action with a sentence.
    const off = await http.request('PATCH', `/v1/tenants/${tenant.tenantId}/idp`, { token: adminToken, body: { active: false } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    await page.getByRole('button', { name: 'Link an identity provider account' }).click();
    await page.getByText('Your organisation has no active single sign-on, so there is no identity provider account to link.').waitFor();
    expect(await page.getByRole('button', { name: 'Link an identity provider account' }).count()).toBe(0);
    await checkPage(page, 'identity-link-no-sso');
    expect(errors).toEqual([]);
  });
});
