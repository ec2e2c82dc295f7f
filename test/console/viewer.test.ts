/**
 * What a role may not do, the console does not offer, in one case: a viewer lists and opens the
 * workspace's connections, runs and inventory, but sees no control to create, edit, test or run
 * one and no edit form; reads the users but has no control to create, change or disable any;
 * sees no tenant administration link, and the single sign-on page opened by its address offers
 * no form.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, launchBrowser, openConsole, signInWithPassword, startConsoleHost } from '../support/console-browser';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, login, PASSWORD, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import type { TestHost } from '../support/test-host';

const clock = new MovableClock();
let host: TestHost;
let http: HttpClient;
let tenant: TestTenant;
let browser: Browser;
let connectionId: string;
const viewerEmail = () => `viewer@${tenant.domain}`;

beforeAll(async () => {
  host = await startConsoleHost({ clock });
  http = api(host.url);
  // MFA off here: the enrollment flow has its own test; this one is about what a role sees.
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  const admin = await login(http, clock, tenant.admin.email);
  await createUser(http, admin.accessToken, { email: viewerEmail(), role: 'viewer' });
  const created = await http.request('POST', '/v1/connections', {
    token: admin.accessToken,
    body: { integration_id: 'int_okta_discovery', name: 'Okta (read me)', scope: {}, schedule: { type: 'daily', hour: 3, minute: 0 }, configuration: { org_url: 'https://tessera-test.okta.com', api_token: '00TesseraLocalOktaApiToken_0123456789abcdef' } },
  });
  expect(created.status).toBe(201);
  connectionId = (created.body as { connection_id: string }).connection_id;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await host?.close();
});

describe('the console, as a viewer', () => {
  it('lists and opens connections with no control to create, edit, test or run', async () => {
    const { page, errors } = await openConsole(browser, host.url);
    await signInWithPassword(page, viewerEmail(), PASSWORD);
    await page.waitForURL('**/connections');

    await page.getByRole('link', { name: 'Okta (read me)' }).waitFor();
    expect(await page.getByText('(viewer)').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'New connection' }).count()).toBe(0);
    await checkPage(page, 'connections-viewer');

    await page.getByRole('link', { name: 'Okta (read me)' }).click();
    await page.waitForURL(`**/connections/${connectionId}`);
    await page.getByRole('heading', { level: 2, name: 'Inventory' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Runs' }).waitFor();
    for (const name of ['Test the connection', 'Run now', 'Save changes', 'Delete the connection']) expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    expect(await page.getByRole('textbox').count()).toBe(0); // no edit form at all
    await checkPage(page, 'connection-viewer');

    // Users: the list, without the form or any role, disable or enable control; no tenant pages.
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('cell', { name: viewerEmail() }).waitFor();
    expect(await page.getByRole('button', { name: 'Create the user' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^(Disable|Enable) / }).count()).toBe(0);
    expect(await page.getByRole('combobox').count()).toBe(0);
    for (const name of ['MFA policy', 'Identity audit log', 'Single sign-on']) expect(await page.getByRole('link', { name }).count(), name).toBe(0);
    await checkPage(page, 'users-viewer');

    // The single sign-on page opened by its address offers nothing either: no IdP form, no domains.
    await page.goto('/settings/sso');
    await page.getByText('Only a tenant administrator manages the identity provider.').waitFor();
    expect(await page.getByRole('textbox').count()).toBe(0);
    expect(await page.getByRole('button', { name: /identity provider|domain/ }).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
