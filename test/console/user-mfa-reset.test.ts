/**
 * The console's "Reset MFA" on the users page, as a tenant admin of a tenant under the default
 * policy (REQUIRED, MANAGE_USERS listed): a confirmation dialog first (Cancel changes nothing),
 * then, the admin's MFA being older than 10 minutes, the step-up prompt; the user is then shown
 * as not enrolled and their session has ended. Every page is scanned with axe and photographed;
 * no browser console error is allowed.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../shared/crypto/totp';
import { checkPage, launchBrowser, openConsole, signInWithPassword, startConsoleHost } from '../support/console-browser';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, login, PASSWORD } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import type { TestHost } from '../support/test-host';

const STALE = 11 * 60; // past the 10-minute step-up window, within the 15-minute token life
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

/** The code an authenticator app shows now; the clock then moves a step so the next code differs. */
async function nextCode(secret: string): Promise<string> {
  // Held from the first code on: the clock is real time plus an offset, and the seconds a loaded
  // machine takes to type a code could otherwise carry its check two steps on, out of the window.
  clock.hold();
  const code = await totpCode(secret, clock.epochSeconds());
  clock.advance(30);
  return code;
}

describe('the console, resetting a user\'s MFA', () => {
  it('asks for confirmation, steps up when the MFA is stale, and the user ends up unenrolled and signed out', async () => {
    const tenant = await createTestTenant(host.deps);
    const admin = await login(http, clock, tenant.admin.email); // enrolls (REQUIRED)
    const lost = `lost-device@${tenant.domain}`;
    const lostId = await createUser(http, admin.accessToken, { email: lost, role: 'viewer' });
    const lostSession = await login(http, clock, lost); // enrolls too
    const enrolled = async () => ((await http.request('GET', `/v1/users/${lostId}`, { token: admin.accessToken })).body as { mfa_enrolled: boolean }).mfa_enrolled;

    const { page, errors } = await openConsole(browser, host.url);
    await signInWithPassword(page, tenant.admin.email, PASSWORD);
    await page.getByLabel('Code from your authenticator app').fill(await nextCode(admin.totpSecret!));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/connections');
    await page.getByRole('link', { name: 'Users' }).click();
    const row = page.getByRole('row').filter({ hasText: lost });
    await expect.poll(() => row.getByRole('cell', { name: 'enrolled', exact: true }).count()).toBe(1);
    // Not offered for the admin's own account.
    expect(await page.getByRole('button', { name: `Reset MFA of ${tenant.admin.email}` }).count()).toBe(0);

    // A real dialog, and Cancel leaves everything as it was.
    await page.getByRole('button', { name: `Reset MFA of ${lost}` }).click();
    const confirmation = page.getByRole('dialog', { name: `Reset the MFA of ${lost}?` });
    await confirmation.waitFor();
    await checkPage(page, 'user-mfa-reset-confirm');
    await confirmation.getByRole('button', { name: 'Cancel' }).click();
    await confirmation.waitFor({ state: 'hidden' });
    expect(await enrolled()).toBe(true);

    // The admin's MFA is now stale: confirming asks for a code first.
    clock.advance(STALE);
    await page.getByRole('button', { name: `Reset MFA of ${lost}` }).click();
    await confirmation.waitFor();
    await confirmation.getByRole('button', { name: 'Reset MFA' }).click();
    const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
    await stepUp.waitFor();
    expect(await confirmation.isVisible()).toBe(false); // one prompt at a time
    expect(await enrolled()).toBe(true);
    await checkPage(page, 'user-mfa-reset-step-up');
    await stepUp.getByLabel('Authentication code').fill(await nextCode(admin.totpSecret!));
    await stepUp.getByRole('button', { name: 'Confirm' }).click();

    await page.getByText(`The MFA of ${lost} is reset`).waitFor();
    await expect.poll(() => row.getByRole('cell', { name: 'not enrolled', exact: true }).count()).toBe(1);
    expect(await page.getByRole('button', { name: `Reset MFA of ${lost}` }).count()).toBe(0);
    await checkPage(page, 'user-mfa-reset-done');
    expect(await enrolled()).toBe(false);
    // Their session has ended; the next sign-in enrolls anew.
    expect((await http.request('POST', '/v1/auth/token', { body: { grant_type: 'refresh_token', refresh_token: lostSession.refreshToken } })).status).toBe(401);
    const next = await http.request('POST', '/v1/auth/login', { body: { email: lost, password: PASSWORD } });
    expect(next.body).toMatchObject({ mfa_required: true, enrollment_required: true });
    expect(errors).toEqual([]);
  });
});
