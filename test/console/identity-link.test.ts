/**
 * Linking an identity provider account from the console's account page, at a real IdP in the
 * browser. The IdP routes no email domain, so these users sign in to the console with a
 * password.
 * - OIDC at a real OpenID Provider (oidc-provider, its login form): a password user links theirs
 *   and sees it listed, and a cancel at the IdP is reported; the API's refusal of an account
 *   already linked to someone else is shown, and once SSO is off there is no link action.
 * - SAML at SimpleSAMLphp 1.19 (its own login form and auto-submitting HTTP-POST page to
 *   Tessera's assertion consumer): a password user links theirs, it is listed and logged; the
 *   API's refusal of an account linked to someone else is shown and nothing is linked. Skipped,
 *   saying so, only where php is missing and CI is not set, as the peers tests do.
 */
import { SSO_CALLBACK_PATH } from '../../shared/console-paths';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, launchBrowser, openConsole, signInAtSimpleSamlPhp, signInWithPassword, startConsoleHost } from '../support/console-browser';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, identityAuditEvents, login, PASSWORD, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startOidcProvider, type LocalOidcProvider } from '../../infra/local/stand-ins/openid-provider';
import { requireSimpleSamlPhp, startTenantSimpleSamlPhp, type SimpleSamlPhp } from '../support/simplesamlphp';
import type { TestHost } from '../support/test-host';

const missing = requireSimpleSamlPhp("The console's SAML linking test");


const clock = new MovableClock();
let host: TestHost;
let http: HttpClient;
let browser: Browser;

beforeAll(async () => {
  host = await startConsoleHost({ clock });
  http = api(host.url);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
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

async function waitForRefusal(page: Page, text: string): Promise<void> {
  const refusal = page.getByRole('alert').filter({ hasText: 'was not linked' });
  await refusal.waitFor();
  expect(await refusal.textContent()).toContain(text);
  await page.getByText('No identity provider account is linked to you.').waitFor();
}

describe('the console, linking an OIDC identity provider account (oidc-provider)', () => {
  const CLIENT_SECRET = 'oidc-client-secret-for-console-linking';
  let tenant: TestTenant;
  let adminToken: string;
  let idp: LocalOidcProvider;
  let carol: string;
  let dave: string;

  beforeAll(async () => {
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
    const created = await http.request('POST', `/v1/tenants/${tenant.tenantId}/idp`, {
      token: adminToken,
      body: { provider_type: 'oidc', issuer: idp.issuer, client_id: 'tessera', client_secret: CLIENT_SECRET, email_domains: [], allowed_redirect_uris: [`${host.url}${SSO_CALLBACK_PATH}`], active: true },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  });
  afterAll(async () => {
    await idp?.close();
  });

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

  it('links a password user\'s IdP account and lists it; a cancel at the IdP is reported', async () => {
    const { page, errors } = await openConsole(browser, host.url);
    await openAccount(page, carol);
    await page.getByText('No identity provider account is linked to you.').waitFor();
    await checkPage(page, 'identity-link-none');

    // Cancelled at the IdP: the IdP's access_denied comes back as the API's description.
    await linkAtIdp(page, 'cancel', 'identity-link-idp');
    await waitForRefusal(page, 'The identity provider did not sign you in (access_denied)');
    await checkPage(page, 'identity-link-cancelled');
    expect(await identitiesOf(carol)).toEqual([]);

    await linkAtIdp(page, { account: 'carol' });
    await page.getByRole('status').filter({ hasText: 'Your identity provider account is linked' }).waitFor();
    const row = page.getByRole('table', { name: 'Identity provider accounts linked to you' }).getByRole('row').filter({ hasText: idp.issuer });
    // The list is read after the outcome is shown: the row is waited for, not assumed.
    await row.waitFor();
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
    await waitForRefusal(page, 'This identity provider account is already linked to another account of the tenant');
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

describe.skipIf(missing !== undefined)('the console, linking a SAML identity provider account (SimpleSAMLphp 1.19)', () => {
  let tenant: TestTenant;
  let idp: SimpleSamlPhp;
  let erin: { id: string; email: string };
  let frank: { id: string; email: string };

  beforeAll(async () => {
    tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
    const adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
    const user = async (name: string) => {
      const email = `${name}@${tenant.domain}`;
      return { id: await createUser(http, adminToken, { email, role: 'viewer' }), email };
    };
    erin = await user('erin');
    frank = await user('frank');
    // Erin's account at the IdP (uid is the subject); no email domain routed there, so both keep their passwords.
    idp = await startTenantSimpleSamlPhp(http, tenant, adminToken, {
      users: [{ username: 'erin', password: 'erinpass', attributes: { uid: ['erin'], mail: [erin.email] } }],
      emailDomains: [],
      allowedRedirectUris: [`${host.url}${SSO_CALLBACK_PATH}`],
    });
  });
  afterAll(async () => {
    await idp?.close();
  });

  /**
   * From the account page to SimpleSAMLphp's login form, signed in there as erin; its
   * HTTP-POST page submits the assertion to Tessera's consumer, which sends the browser back
   * through the console's return page to /account.
   */
  async function linkErinAtIdp(page: Page): Promise<void> {
    await page.getByRole('button', { name: 'Link an identity provider account' }).click();
    // SimpleSAMLphp's own pages are not scanned: they are not Tessera's, and its 1.19 login
    // form fails axe as shipped (tabindex > 0, a low-contrast footer link).
    await signInAtSimpleSamlPhp(page, idp.url, 'erin', 'erinpass');
    await page.waitForURL(`${host.url}/account`).catch(async (error: unknown) => {
      throw new Error(`not back on the account page (${page.url()}): ${String(error)}\n${(await idp.log()).slice(-3000)}`);
    });
    await page.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
  }

  /** The identity log's link events (linked or refused) of this user. */
  async function linkEvents(userId: string) {
    return (await identityAuditEvents(host.deps, tenant.tenantId))
      .filter((e) => e.target_id === userId && e.action.startsWith('federated_identity_link'))
      .map((e) => ({ action: e.action, actor_id: e.actor_id, payload: e.payload }));
  }

  it("links a password user's IdP account through SimpleSAMLphp's login form and HTTP-POST page, lists it, and logs the link", async () => {
    const { page, errors } = await openConsole(browser, host.url);
    await openAccount(page, erin.email);
    await page.getByText('No identity provider account is linked to you.').waitFor();
    await checkPage(page, 'identity-link-saml-none');

    await linkErinAtIdp(page);
    await page.getByRole('status').filter({ hasText: 'Your identity provider account is linked' }).waitFor();
    const row = page.getByRole('table', { name: 'Identity provider accounts linked to you' }).getByRole('row').filter({ hasText: idp.entityId });
    // The list is read after the outcome is shown: the row is waited for, not assumed.
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual(['SAML', idp.entityId, 'erin', expect.any(String)]);
    await checkPage(page, 'identity-link-saml-linked');

    const linked = await identitiesOf(erin.email);
    expect(linked).toMatchObject([{ provider_type: 'saml', issuer: idp.entityId, subject: 'erin' }]);
    expect(await linkEvents(erin.id)).toEqual([
      { action: 'federated_identity_linked', actor_id: erin.id, payload: expect.objectContaining({ federated_identity_id: linked[0]!.id, provider_type: 'saml', idp_issuer: idp.entityId }) },
    ]);
    expect(errors).toEqual([]);
  });

  it("shows the API's refusal of the IdP account when it is linked to someone else, and links nothing", async () => {
    // Erin's IdP account (linked to her by the test above, or here when this test runs alone).
    if ((await identitiesOf(erin.email)).length === 0) {
      const other = await openConsole(browser, host.url);
      await openAccount(other.page, erin.email);
      await linkErinAtIdp(other.page);
      await other.page.context().close();
    }
    const { page, errors } = await openConsole(browser, host.url);
    await openAccount(page, frank.email);
    await linkErinAtIdp(page);
    await waitForRefusal(page, 'This identity provider account is already linked to another account of the tenant');
    await checkPage(page, 'identity-link-saml-refused');

    expect(await identitiesOf(frank.email)).toEqual([]);
    expect(await identitiesOf(erin.email)).toMatchObject([{ subject: 'erin' }]);
    expect(await linkEvents(frank.id)).toEqual([
      { action: 'federated_identity_link_refused', actor_id: frank.id, payload: { provider_type: 'saml', idp_issuer: idp.entityId, reason: 'identity_linked_to_another_user' } },
    ]);
    expect(errors).toEqual([]);
  });
});
