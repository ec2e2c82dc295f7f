/**
 * The web console as a tenant's first admin uses it, in headless Chromium against the local
 * host serving the built console. Every page is scanned with axe and photographed; no browser
 * console error is allowed.
 * - The journey: the first login with MFA enrollment (the TOTP computed from the secret the page
 *   shows); a connection created from the catalog's Okta example and tested against a local
 *   Okta (the example's token is refused: the remediation is shown); an edit that meets someone
 *   else's change (412) and then lands; the real token passes the test; a run and its inventory
 *   (the kind filter, a search by name, relationships filtered by kind with both ends by name,
 *   never a provider id); the run's page with its changes grouped by kind; a personal access
 *   token created behind a step-up prompt and revoked; a reload keeps the session; signed out
 *   and back in, an MFA challenge instead of an enrollment.
 * - The public pages: the forgotten-password form and the reset link's page.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../shared/crypto/totp';
import { checkPage, launchBrowser, openConsole, startConsoleHost, type ConsolePage } from '../support/console-browser';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login, PASSWORD, totpSecrets, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { listAll, type EntityBody } from '../support/runs';
import { buildOrg, oktaGroup, oktaToken, oktaUser, startFakeOkta, type FakeOkta } from '../../infra/local/stand-ins/okta';
import type { TestHost } from '../support/test-host';

const clock = new MovableClock();
let okta: FakeOkta;
let host: TestHost;
let http: HttpClient;
let tenant: TestTenant;
let browser: Browser;
let opened: ConsolePage | undefined;

beforeAll(async () => {
  const [alice, bob] = [oktaUser(1, { login: 'alice@example.test' }), oktaUser(2, { login: 'bob@example.test' })];
  const eng = oktaGroup(1, 'eng-core');
  okta = await startFakeOkta({ org: buildOrg({ users: [alice, bob], groups: [eng], members: { [eng.id]: [alice.id, bob.id] }, apps: [], appGroups: {} }) });
  host = await startConsoleHost({ clock, env: { TESSERA_CONNECTOR_ENDPOINTS: JSON.stringify({ okta: okta.url }) } });
  http = api(host.url);
  tenant = await createTestTenant(host.deps); // MFA REQUIRED for every action: the spec's default
  browser = await launchBrowser();
});
afterEach(() => {
  // Every test ends with no console error in its page (checked here so a failing step still reports them).
  if (opened) expect(opened.errors, 'browser console errors').toEqual([]);
});
afterAll(async () => {
  await browser?.close();
  await host?.close();
  await okta?.close();
});

/** The 6-digit code an authenticator app shows now; the clock then moves a step so the next code differs. */
async function nextCode(secret: string): Promise<string> {
  // Held from the first code on: the clock is real time plus an offset, and the seconds a loaded
  // machine takes to type a code could otherwise carry its check two steps on, out of the window.
  clock.hold();
  const code = await totpCode(secret, clock.epochSeconds());
  clock.advance(30);
  return code;
}

function connectionIdOf(page: Page): string {
  return decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
}

describe('the console, as a tenant admin', () => {
  it('first login with MFA enrollment, a connection from the catalog tested, edited, run and browsed, a PAT behind step-up', async () => {
    opened = await openConsole(browser, host.url);
    const { page } = opened;

    // Sign in: email discovery, then the password.
    await page.goto('/');
    await page.waitForURL('**/sign-in');
    await checkPage(page, 'sign-in');
    await page.getByLabel('Work email').fill(tenant.admin.email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Password').fill('not the password at all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/\S/); // the problem's detail, shown
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();

    // First login: enrollment with the QR code and the secret as text.
    await page.waitForURL('**/mfa/enroll');
    const secret = (await page.locator('#mfa-secret').textContent())!;
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await expect.poll(() => page.getByRole('img', { name: /QR code/ }).count()).toBe(1);
    await checkPage(page, 'mfa-enroll');
    await page.getByLabel('6-digit code').fill(await nextCode(secret));
    await page.getByRole('button', { name: 'Confirm' }).click();
    const codes = page.getByRole('list', { name: 'Backup codes' }).getByRole('listitem');
    await expect.poll(() => codes.count()).toBe(10);
    expect(await page.getByRole('link', { name: 'Download the codes' }).getAttribute('download')).toBe('tessera-backup-codes.txt');
    await checkPage(page, 'mfa-backup-codes');
    await page.getByRole('button', { name: 'I saved them, continue' }).click();
    // A second session of the admin, over the API, for the changes "someone else" makes meanwhile.
    totpSecrets.set(tenant.admin.email, secret);
    const adminToken = (await login(http, clock, tenant.admin.email)).accessToken;

    // Connections: none yet; one from the catalog's Okta example.
    await page.waitForURL('**/connections');
    await page.getByText('No connections yet.').waitFor();
    await checkPage(page, 'connections-empty');
    await page.getByRole('link', { name: 'New connection' }).click();
    await page.getByLabel('Integration').selectOption('int_okta_discovery');
    const tokenInput = page.getByLabel(/^API token/);
    expect(await tokenInput.getAttribute('type')).toBe('password'); // write-only: a password input
    expect(await tokenInput.inputValue()).toBe(''); // never the catalog's example secret
    expect(await page.getByLabel(/^Group filter/).getAttribute('placeholder')).toBe('For example: eng-');
    await page.getByLabel(/^Org URL/).fill('https://tessera-test.okta.com');
    await tokenInput.fill('00EXAMPLE_refused_by_the_local_okta'); // a token the local Okta refuses, for the failed test below
    await checkPage(page, 'connection-new');
    await page.getByRole('button', { name: 'Create the connection' }).click();
    await page.waitForURL(/\/connections\/conn_/);
    const connectionId = connectionIdOf(page);

    // Test: the example's token is refused by the local Okta; the remediation says what to do.
    await page.getByRole('button', { name: 'Test the connection' }).click();
    await page.getByText(/^Test failed/).waitFor();
    const remediation = page.getByRole('list', { name: 'How to fix it' }).getByRole('listitem');
    expect(await remediation.count()).toBeGreaterThan(0);
    expect(await remediation.first().getByRole('button', { name: 'Copy the action' }).count()).toBe(1);
    await expect.poll(() => page.locator('#connection-status').textContent()).toBe('degraded');
    await checkPage(page, 'connection-test-failed');

    // Edit: someone else changes the connection first, so If-Match fails and the page says so.
    const current = await http.request('GET', `/v1/connections/${connectionId}`, { token: adminToken });
    const changed = await http.request('PATCH', `/v1/connections/${connectionId}`, { token: adminToken, headers: { 'if-match': current.headers.etag }, body: { name: 'Renamed elsewhere' } });
    expect(changed.status).toBe(200);
    const fillConfiguration = async () => {
      await page.getByLabel(/^Org URL/).fill('https://tessera-test.okta.com');
      await page.getByLabel(/^API token/).fill(oktaToken);
    };
    await fillConfiguration();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Someone else changed this connection since you opened it.').waitFor();
    await checkPage(page, 'connection-edit-conflict');
    await page.getByRole('button', { name: 'Load the latest version' }).click();
    await page.getByRole('heading', { level: 1, name: 'Renamed elsewhere' }).waitFor();
    expect(await page.getByLabel(/^API token/).inputValue()).toBe(''); // a secret is never filled back
    await fillConfiguration();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('button', { name: 'Save changes' }).waitFor();
    await expect.poll(async () => (await http.request('GET', `/v1/audit-events?target_id=${connectionId}`, { token: adminToken })).text).toContain('connection_edited');

    // The real token passes the test.
    await page.getByRole('button', { name: 'Test the connection' }).click();
    await page.getByText(/^Test passed/).waitFor();
    await expect.poll(() => page.locator('#connection-status').textContent()).toBe('healthy');

    // A run, to its end, and its inventory with the kind filter.
    await page.getByRole('button', { name: 'Run now' }).click();
    await expect.poll(() => page.locator('td.run-status').first().textContent(), { timeout: 120_000 }).toBe('succeeded');
    const entityRows = page.locator('table.entities tbody tr');
    await expect.poll(() => entityRows.count()).toBeGreaterThan(0);
    await page.getByLabel('Entity kind').selectOption('Principal');
    await expect.poll(async () => [...new Set(await page.locator('table.entities tbody tr td:nth-child(2)').allTextContents())]).toEqual(['Principal']);
    await checkPage(page, 'connection-run-inventory');
    // Searched by name, and the relationships by kind with both ends by name, never a provider id.
    const listed = await listAll<EntityBody>(http, adminToken, `/v1/connections/${connectionId}/entities`, 'entities');
    const principal = listed.find((e) => e.kind === 'Principal')!;
    await page.getByLabel('Entity kind').selectOption('');
    await page.getByLabel('Name or source id').fill(principal.display_name);
    await page.getByRole('search', { name: 'Entities' }).getByRole('button', { name: 'Search' }).click();
    const prefix = principal.display_name.toLowerCase();
    const matching = listed.filter((e) => e.display_name.toLowerCase().startsWith(prefix) || e.source_id.toLowerCase().startsWith(prefix)).map((e) => e.display_name).sort();
    expect(matching.length).toBeLessThan(listed.length);
    await expect.poll(async () => (await page.locator('table.entities tbody tr td:first-child').allTextContents()).sort()).toEqual(matching);
    const assigned = (await listAll<{ kind: string; from: { display_name: string; kind: string }; to: { display_name: string; kind: string } }>(http, adminToken, `/v1/connections/${connectionId}/relationships?kind=account_assigned_entitlement`, 'relationships'));
    expect(assigned.length).toBeGreaterThan(0);
    await page.getByLabel('Relationship kind').selectOption('account_assigned_entitlement');
    const relationshipRows = page.locator('table.relationships tbody tr');
    await expect.poll(async () => [...new Set(await relationshipRows.locator('td:first-child').allTextContents())]).toEqual(['account_assigned_entitlement']);
    const shownEnds = await relationshipRows.locator('td:nth-child(3)').allTextContents();
    expect(shownEnds).toContain(`${assigned[0]!.to.display_name} (Entitlement)`);
    expect(shownEnds.filter((text) => /^00[ug]/.test(text))).toEqual([]);
    // The run's own page: its changes grouped by kind.
    await page.getByRole('table', { name: 'Runs of this connection' }).getByRole('link').first().click();
    await page.getByRole('region', { name: 'Changes' }).getByRole('heading', { level: 3, name: 'Principal', exact: true }).waitFor();
    await checkPage(page, 'connection-run');

    // Tokens, eleven minutes after the last MFA: creating one needs a step-up.
    clock.advance(11 * 60);
    await page.getByRole('link', { name: 'Access tokens' }).click();
    await page.waitForURL('**/tokens');
    await page.getByLabel('Name').fill('ci reader');
    await page.getByLabel(/connections:read/).check();
    await checkPage(page, 'tokens');
    await page.getByRole('button', { name: 'Create the token' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
    await dialog.waitFor();
    await checkPage(page, 'step-up');
    await dialog.getByLabel('Authentication code').fill(await nextCode(secret));
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    const shown = (await page.locator('#new-token').textContent())!;
    expect(shown).toMatch(/^tsr_pat_/);
    expect((await http.request('GET', '/v1/connections', { token: shown })).status).toBe(200);
    await checkPage(page, 'tokens-created');
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.locator('#new-token').count()).toBe(0); // shown once

    await page.getByRole('button', { name: 'Revoke ci reader' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke the token' }).click();
    await expect.poll(() => page.locator('td.token-state').first().textContent()).toBe('revoked');
    expect((await http.request('GET', '/v1/connections', { token: shown })).status).toBe(401);

    // A reload keeps the session (this tab's refresh token), and the page comes back.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Personal access tokens' }).waitFor();

    // Sign out, and back in: now an MFA challenge, not an enrollment.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/sign-in');
    await page.getByLabel('Work email').fill(tenant.admin.email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/mfa/challenge');
    await checkPage(page, 'mfa-challenge');
    await page.getByLabel('Code from your authenticator app').fill(await nextCode(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/connections');
    await page.getByRole('link', { name: 'Renamed elsewhere' }).waitFor();
  });

  it('the public pages: forgotten password and the reset link', async () => {
    opened = await openConsole(browser, host.url);
    const { page } = opened;
    await page.goto('/forgot-password');
    await checkPage(page, 'forgot-password');
    await page.getByLabel('Work email').fill(tenant.admin.email);
    await page.getByRole('button', { name: 'Send the reset link' }).click();
    await page.getByText(/an email with a reset link is on its way/).waitFor();

    await page.goto('/reset-password?token=tsr_reset_not-a-real-one');
    await checkPage(page, 'reset-password');
    await page.getByLabel(/^New password/).fill('a long enough passphrase here');
    await page.getByRole('button', { name: 'Set the password' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/\S/);
  });
});

