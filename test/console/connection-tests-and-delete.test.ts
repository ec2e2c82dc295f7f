/**
 * A connection's test history and its deletion, as a tenant admin, in one case: tests made
 * earlier (over the API) and one from the page are listed newest first with what they asked to
 * fix; delete asks first, and a dismissed confirmation deletes nothing.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READABLE_TIME_FIELDS } from '../../console/src/components/readable-time';
import { checkPage, launchBrowser, openConsole, signInWithPassword, startConsoleHost } from '../support/console-browser';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login, PASSWORD, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { buildOrg, oktaToken, startFakeOkta, type FakeOkta } from '../../infra/local/stand-ins/okta';
import type { TestHost } from '../support/test-host';

const clock = new MovableClock();
let okta: FakeOkta;
let host: TestHost;
let http: HttpClient;
let tenant: TestTenant;
let browser: Browser;
let adminToken: string;
let connectionId: string;

beforeAll(async () => {
  okta = await startFakeOkta({ org: buildOrg({ users: [], groups: [], members: {}, apps: [], appGroups: {} }) });
  host = await startConsoleHost({ clock, env: { TESSERA_CONNECTOR_ENDPOINTS: JSON.stringify({ okta: okta.url }) } });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
  // A token the provider refuses: every test fails with a remediation item to show.
  const created = await http.request('POST', '/v1/connections', {
    token: adminToken,
    body: { integration_id: 'int_okta_discovery', name: 'Okta (to delete)', scope: {}, schedule: { type: 'daily', hour: 3, minute: 0 }, configuration: { org_url: 'https://tessera-test.okta.com', api_token: `${oktaToken}-revoked` } },
  });
  expect(created.status).toBe(201);
  connectionId = (created.body as { connection_id: string }).connection_id;
  expect((await http.request('POST', `/v1/connections/${connectionId}/test`, { token: adminToken })).status).toBe(200);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await host?.close();
  await okta?.close();
});

describe('the console, a connection', () => {
  it('lists its tests newest first, and deletes it only after the confirmation', async () => {
    const { page, errors } = await openConsole(browser, host.url);
    await signInWithPassword(page, tenant.admin.email, PASSWORD);
    await page.waitForURL('**/connections');
    await page.getByRole('link', { name: 'Okta (to delete)' }).click();

    const history = page.getByRole('table', { name: 'Tests of this connection, newest first' }).locator('tbody tr');
    await expect.poll(() => history.count()).toBe(1);
    clock.advance(60);
    await page.getByRole('button', { name: 'Test the connection' }).click();
    await expect.poll(() => history.count()).toBe(2);
    const listed = ((await http.request('GET', `/v1/connections/${connectionId}/tests`, { token: adminToken })).body as { tests: { checked_at: string; remediation: { message: string }[] }[] }).tests;
    // Shown relative to now; the exact moment in the reader's locale on hover, and in the datetime attribute.
    expect(await history.locator('td:first-child time').evaluateAll((times) => times.map((t) => t.getAttribute('datetime')))).toEqual(listed.map((t) => t.checked_at));
    expect(await history.locator('td:first-child time').evaluateAll((times) => times.map((t) => t.getAttribute('title')))).toEqual(listed.map((t) => new Intl.DateTimeFormat('en-US', { ...READABLE_TIME_FIELDS, timeZone: 'UTC' }).format(new Date(t.checked_at))));
    expect(listed[0]!.checked_at > listed[1]!.checked_at).toBe(true);
    expect(await history.locator('td.test-status').allTextContents()).toEqual(['failed', 'failed']);
    expect(await history.first().textContent()).toContain(listed[0]!.remediation[0]!.message);
    await checkPage(page, 'connection-tests');

    // Dismissed: nothing deleted, so the page still works on it (a third test is listed, which a
    // deletion sent first would have refused). Accepted: gone, back on the list.
    await page.getByRole('button', { name: 'Delete the connection' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    clock.advance(60);
    await page.getByRole('button', { name: 'Test the connection' }).click();
    await expect.poll(() => history.count()).toBe(3);
    expect(new URL(page.url()).pathname).toBe(`/connections/${connectionId}`);
    expect((await http.request('GET', `/v1/connections/${connectionId}`, { token: adminToken })).status).toBe(200);
    await page.getByRole('button', { name: 'Delete the connection' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete the connection' }).click();
    await page.waitForURL('**/connections');
    await page.getByText('No connections yet.').waitFor();
    expect((await http.request('GET', `/v1/connections/${connectionId}`, { token: adminToken })).status).toBe(404);
    expect(errors).toEqual([]);
  });
});
