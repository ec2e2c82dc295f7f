/**
 * The console's single sign-on page, as a tenant admin. Nothing real answers the issuer: the API
 * validates the input and fetches nothing on create.
 * - OIDC: an IdP configured (a field error for a bad issuer first, the client secret never shown
 *   back), edited and deleted; an email domain added and shown pending with the TXT record to
 *   publish.
 * - SAML: metadata whose certificate is not X.509 refused beside the field, then valid metadata
 *   saved with what Tessera read from it and what to register at the IdP shown, edited and
 *   deleted.
 */
import { X509Certificate } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, launchBrowser, openConsole, signInWithPassword, startConsoleHost } from '../support/console-browser';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login, PASSWORD, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { idpMetadataXml, signingIdentity } from '../support/saml-idp';
import type { TestHost } from '../support/test-host';

const clock = new MovableClock();
let host: TestHost;
let http: HttpClient;
let tenant: TestTenant;
let browser: Browser;

beforeAll(async () => {
  host = await startConsoleHost({ clock });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await host?.close();
});

interface IdpAnswer { provider_type: string; issuer: string | null; client_id: string | null; client_secret_set: boolean; email_domains: string[]; allowed_redirect_uris: string[]; default_role: string }
interface SamlIdpAnswer extends IdpAnswer {
  saml_metadata: string | null;
  saml_subject_attribute: string | null;
  saml: { entity_id: string; sso_url: string; signing_certificate_sha256: string[]; want_authn_requests_signed: boolean } | null;
  service_provider: { redirect_uri: string; acs_url: string; entity_id: string; metadata_url: string };
}
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

    // Removing a domain asks first: Cancel keeps it, the dialog's Remove removes it.
    await row.getByRole('button', { name: `Remove ${added}` }).click();
    const removal = page.getByRole('dialog', { name: `Remove ${added}?` });
    await removal.waitFor();
    await checkPage(page, 'sso-domain-remove-dialog');
    await removal.getByRole('button', { name: 'Cancel' }).click();
    await removal.waitFor({ state: 'hidden' });
    const listedDomains = async () => ((await http.request('GET', `/v1/tenants/${tenant.tenantId}/domains`, { token: adminToken })).body as { domains: DomainAnswer[] }).domains.map((d) => d.domain);
    expect(await listedDomains()).toContain(added);
    await row.getByRole('button', { name: `Remove ${added}` }).click();
    await removal.getByRole('button', { name: `Remove ${added}` }).click();
    await page.getByText(`${added} removed.`).waitFor();
    expect(await listedDomains()).not.toContain(added);

    // Delete, after the confirmation: Cancel keeps the IdP.
    await page.getByRole('button', { name: 'Delete the identity provider' }).click();
    const deletion = page.getByRole('dialog', { name: 'Delete the identity provider?' });
    await deletion.getByRole('button', { name: 'Cancel' }).click();
    await deletion.waitFor({ state: 'hidden' });
    expect((await idp()).status).toBe(200);
    await page.getByRole('button', { name: 'Delete the identity provider' }).click();
    await deletion.getByRole('button', { name: 'Delete the identity provider' }).click();
    await page.getByText('The identity provider is deleted.').waitFor();
    expect((await idp()).status).toBe(404);
    expect(errors).toEqual([]);
  });

  it('configures a SAML IdP with a field error first, shows what it read and what to register, edits and deletes it', async () => {
    const { page, errors } = await openConsole(browser, host.url);
    await signInWithPassword(page, tenant.admin.email, PASSWORD);
    await page.waitForURL('**/connections');
    const adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
    const idp = async () => http.request('GET', `/v1/tenants/${tenant.tenantId}/idp`, { token: adminToken });
    if ((await idp()).status === 200) await http.request('DELETE', `/v1/tenants/${tenant.tenantId}/idp`, { token: adminToken });
    const first = signingIdentity('console-saml-idp');
    const rotated = signingIdentity('console-saml-idp-rotated');
    const metadata = (certBody: string, wantAuthnRequestsSigned = false) =>
      idpMetadataXml({ entityId: 'https://idp.example.com/saml', ssoUrl: 'https://idp.example.com/saml/sso', certBody, wantAuthnRequestsSigned });

    await page.getByRole('link', { name: 'Single sign-on' }).click();
    await page.getByRole('heading', { level: 2, name: 'Set up an identity provider' }).waitFor();
    await page.getByLabel('SAML 2.0').check();
    await page.getByLabel('IdP metadata (XML)').waitFor();
    expect(await page.getByLabel('Issuer URL').count()).toBe(0);

    // Metadata whose signing certificate is no X.509: the API's errors[].path puts it beside the metadata.
    await page.getByLabel('IdP metadata (XML)').fill(metadata('bm90IGEgY2VydGlmaWNhdGU='));
    await page.getByLabel('Subject attribute (optional)').fill('uid');
    await page.getByLabel(tenant.domain).check();
    await page.getByRole('button', { name: 'Create the identity provider' }).click();
    await page.locator('#saml_metadata-error').waitFor();
    expect(await page.locator('#saml_metadata-error').textContent()).toMatch(/not valid X\.509/);
    expect(await page.getByLabel('IdP metadata (XML)').getAttribute('aria-invalid')).toBe('true');
    expect((await idp()).status).toBe(404);
    await checkPage(page, 'sso-saml-field-error');

    await page.getByLabel('IdP metadata (XML)').fill(metadata(first.certBody));
    await page.getByRole('button', { name: 'Create the identity provider' }).click();
    await page.getByText('The identity provider is saved.').waitFor();
    const created = (await idp()).body as SamlIdpAnswer;
    expect(created).toMatchObject({
      provider_type: 'saml', saml_metadata: metadata(first.certBody), saml_subject_attribute: 'uid', email_domains: [tenant.domain], allowed_redirect_uris: [`${host.url}/sign-in/sso`],
      saml: { entity_id: 'https://idp.example.com/saml', sso_url: 'https://idp.example.com/saml/sso', signing_certificate_sha256: [new X509Certificate(Buffer.from(first.certBody, 'base64')).fingerprint256], want_authn_requests_signed: false },
      service_provider: { acs_url: `${host.url}/v1/auth/sso/${tenant.slug}/callback`, entity_id: `${host.url}/v1/auth/sso/${tenant.slug}/metadata` },
    });
    // What Tessera read from the metadata, to compare with the IdP's own console.
    expect(await page.locator('#saml-entity-id').textContent()).toBe(created.saml!.entity_id);
    expect(await page.locator('#saml-sso-url').textContent()).toBe(created.saml!.sso_url);
    expect(await page.locator('#saml-certificates li').allTextContents()).toEqual(created.saml!.signing_certificate_sha256);
    expect(await page.locator('#saml-signed-requests').textContent()).toBe('not asked for');
    // What to register at the IdP: the ACS URL, the SP entity id and its metadata, which answers.
    await page.getByText(created.service_provider.acs_url, { exact: true }).waitFor();
    await page.getByText(created.service_provider.entity_id, { exact: true }).first().waitFor();
    const metadataLink = page.getByRole('link', { name: created.service_provider.metadata_url });
    expect(await metadataLink.getAttribute('href')).toBe(created.service_provider.metadata_url);
    const spMetadata = await http.request('GET', new URL(created.service_provider.metadata_url).pathname);
    expect(spMetadata.status).toBe(200);
    expect(spMetadata.text).toContain(created.service_provider.acs_url);
    await checkPage(page, 'sso-saml-configured');

    // An edit: the IdP rotated its certificate and now wants signed requests; the subject attribute is cleared.
    await page.getByLabel('IdP metadata (XML)').fill(metadata(rotated.certBody, true));
    await page.getByLabel('Subject attribute (optional)').fill('');
    await page.getByRole('button', { name: 'Save the identity provider' }).click();
    await expect.poll(async () => ((await idp()).body as SamlIdpAnswer).saml?.signing_certificate_sha256).toEqual([new X509Certificate(Buffer.from(rotated.certBody, 'base64')).fingerprint256]);
    const edited = (await idp()).body as SamlIdpAnswer;
    expect(edited).toMatchObject({ provider_type: 'saml', saml_subject_attribute: null, saml: { want_authn_requests_signed: true } });
    await expect.poll(() => page.locator('#saml-certificates li').allTextContents()).toEqual(edited.saml!.signing_certificate_sha256);
    expect(await page.locator('#saml-signed-requests').textContent()).toBe('yes, the IdP wants them signed');
    expect(await page.getByLabel('Subject attribute (optional)').inputValue()).toBe('');
    await checkPage(page, 'sso-saml-edited');

    await page.getByRole('button', { name: 'Delete the identity provider' }).click();
    await page.getByRole('dialog', { name: 'Delete the identity provider?' }).getByRole('button', { name: 'Delete the identity provider' }).click();
    await page.getByText('The identity provider is deleted.').waitFor();
    expect((await idp()).status).toBe(404);
    expect(errors).toEqual([]);
  });
});
