/**
 * The console's single sign-on page, as a tenant admin: an OIDC IdP configured (a field error
 * for a bad issuer first, the client secret never shown back), edited and deleted; an email
 * domain added and shown pending with the TXT record to publish.
 * Nothing real answers the issuer: the API validates the input and fetches nothing on create.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleDistDir } from '../../infra/local/console-build';
import { consoleSite } from '../../infra/local/console-site';
import { checkPage, launchBrowser, openConsole, signInWithPassword } from '../support/console-browser';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login, PASSWORD, verifyDomainAsOperator, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { startTestHost, type TestHost } from '../support/test-host';

const clock = new MovableClock();
let host: TestHost;
let http: HttpClient;
let tenant: TestTenant;
let browser: Browser;

beforeAll(async () => {
  host = await startTestHost({ clock, site: consoleSite(consoleDistDir) });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  await verifyDomainAsOperator(host.deps, tenant.tenantId, tenant.domain);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await host?.close();
});

interface IdpAnswer { provider_type: string; issuer: string | null; client_id: string | null; client_secret_set: boolean; email_domains: string[]; allowed_redirect_uris: string[]; default_role: string }
interface DomainAnswer { domain: string; status: string; verification: { name: string; value: string } }

describe('the console, single sign-on', () => {
  it('configures an OIDC IdP with a field error first, edits and deletes it, and adds a domain pending with its TXT record', async () => {
    const { page, errors } = await openConsole(browser, host.url);
    await signInWithPassword(page, tenant.admin.email, PASSWORD);
    await page.waitForURL('**/connections');
    const adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
    const idp = async () => http.request('GET', `/v1/tenants/${tenant.tenantId}/idp`, { token: adminToken });

    await page.getByRole('link', { name: 'Single sign-on' }).click();
    await page.getByRole('heading', { level: 2, name: 'Set up an identity provider' }).waitFor();
    await checkPage(page, 'sso-new');

    // A plain-http issuer off loopback: the API's errors[].path puts the message beside the issuer.
    await page.getByLabel('Issuer URL').fill('http://idp.example.com');
    await page.getByLabel('Client ID').fill('tessera-console');
    await page.getByLabel('Client secret').fill('s3cret-of-the-idp-client');
    await page.getByLabel(tenant.domain).check();
    await page.getByRole('button', { name: 'Create the identity provider' }).click();
    await page.locator('#issuer-error').waitFor();
    expect(await page.locator('#issuer-error').textContent()).toMatch(/https/);
    expect(await page.getByLabel('Issuer URL').getAttribute('aria-invalid')).toBe('true');
    expect((await idp()).status).toBe(404);
    await checkPage(page, 'sso-field-error');

    await page.getByLabel('Issuer URL').fill('https://idp.example.com');
    await page.getByRole('button', { name: 'Create the identity provider' }).click();
    await page.getByText('The identity provider is saved.').waitFor();
    const created = (await idp()).body as IdpAnswer;
    expect(created).toMatchObject({ provider_type: 'oidc', issuer: 'https://idp.example.com', client_id: 'tessera-console', client_secret_set: true, email_domains: [tenant.domain], default_role: 'viewer' });
    expect(created.allowed_redirect_uris).toEqual([`${host.url}/sign-in/sso`]);
    // The secret is write-only: the form shows it is stored, never what it is.
    expect(await page.getByLabel('Client secret').inputValue()).toBe('');
    await page.getByText('A secret is stored; leave blank to keep it.').waitFor();
    expect(await page.content()).not.toContain('s3cret-of-the-idp-client');

    // An edit without a secret keeps the stored one.
    await page.getByLabel('Role of users created at their first sign-in').selectOption('connector_builder');
    await page.getByRole('button', { name: 'Save the identity provider' }).click();
    await expect.poll(async () => ((await idp()).body as IdpAnswer).default_role).toBe('connector_builder');
    expect(((await idp()).body as IdpAnswer).client_secret_set).toBe(true);
    await checkPage(page, 'sso-configured');

    // A domain: pending, with the TXT record the API asks for.
    const added = `corp-${tenant.domain}`;
    await page.getByLabel('New email domain').fill(added);
    await page.getByRole('button', { name: 'Add the domain' }).click();
    const row = page.getByRole('row').filter({ hasText: added });
    await expect.poll(() => row.locator('td.domain-status').textContent()).toBe('pending');
    const domains = ((await http.request('GET', `/v1/tenants/${tenant.tenantId}/domains`, { token: adminToken })).body as { domains: DomainAnswer[] }).domains;
    const pending = domains.find((d) => d.domain === added)!;
    expect(pending.status).toBe('pending');
    expect(await row.locator('code.domain-txt-value').textContent()).toBe(pending.verification.value);
    await row.getByText(`_tessera-challenge.${added}`).waitFor();
    await checkPage(page, 'sso-domains');

    // Delete, after the confirmation.
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete the identity provider' }).click();
    await page.getByText('The identity provider is deleted.').waitFor();
    expect((await idp()).status).toBe(404);
    expect(errors).toEqual([]);
  });
});
