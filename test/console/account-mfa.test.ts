/**
 * MFA for users who have none, from the console. Every page is scanned with axe and
 * photographed; no browser console error is allowed.
 * - A password user of an OPTIONAL tenant (never made to enroll at login) sets up an
 *   authenticator on the account page: the password asked first (a session alone does not bind
 *   one), a wrong password, then a wrong code, shown beside their fields, then the backup codes
 *   once.
 * - A user signed in without MFA whose tenant then makes it REQUIRED for creating a PAT meets a
 *   step-up prompt that asks for no code they cannot give: it explains and links to the account
 *   page, where they enroll; the same action then goes through the usual step-up with a code.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../shared/crypto/totp';
import { checkPage, launchBrowser, openConsole, signInWithPassword, startConsoleHost, type ConsolePage } from '../support/console-browser';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, login, PASSWORD, totpSecrets } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import type { TestHost } from '../support/test-host';

const clock = new MovableClock();
let host: TestHost;
let http: HttpClient;
let browser: Browser;
let opened: ConsolePage | undefined;

beforeAll(async () => {
  host = await startConsoleHost({ clock });
  http = api(host.url);
  browser = await launchBrowser();
});
afterEach(() => {
  // Every test ends with no console error in its page (checked here so a failing step still reports them).
  if (opened) expect(opened.errors, 'browser console errors').toEqual([]);
  opened = undefined;
});
afterAll(async () => {
  await browser?.close();
  await host?.close();
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

/**
 * From the account page's offer to the backup codes: the password asked first (a wrong one shown
 * beside its field, no secret given), the secret read off the page, a wrong code (an hour old)
 * shown beside the field, then the right one. Returns the secret and the codes.
 */
async function enrollOnAccountPage(page: Page, shots: string): Promise<{ secret: string; backupCodes: string[] }> {
  const section = page.getByRole('region', { name: 'Set up an authenticator' });
  expect(await page.getByRole('heading', { name: 'MFA backup codes' }).count()).toBe(0); // nothing to regenerate yet
  await checkPage(page, `${shots}-offer`);
  const password = section.getByLabel('Your password, to confirm it is you');
  await password.fill('not my password at all');
  await section.getByRole('button', { name: 'Set up an authenticator' }).click();
  await section.locator('#enrollment_password-error').waitFor();
  expect(await password.getAttribute('aria-invalid')).toBe('true');
  expect(await section.locator('#enrollment_password-error').textContent()).toMatch(/not your current password/);
  expect(await section.locator('#mfa-secret').count()).toBe(0);
  await checkPage(page, `${shots}-wrong-password`);
  await password.fill(PASSWORD);
  await section.getByRole('button', { name: 'Set up an authenticator' }).click();
  await section.locator('#mfa-secret').waitFor();
  const secret = (await section.locator('#mfa-secret').textContent())!;
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await expect.poll(() => section.getByRole('img', { name: /QR code/ }).count()).toBe(1);
  await checkPage(page, `${shots}-qr`);

  await section.getByLabel('6-digit code').fill(await totpCode(secret, clock.epochSeconds() - 3600));
  await section.getByRole('button', { name: 'Confirm' }).click();
  await section.locator('#code-error').waitFor();
  expect(await section.getByLabel('6-digit code').getAttribute('aria-invalid')).toBe('true');
  expect(await section.locator('#code-error').textContent()).toMatch(/code is wrong/);
  await checkPage(page, `${shots}-wrong-code`);

  await section.getByLabel('6-digit code').fill(await nextCode(secret));
  await section.getByRole('button', { name: 'Confirm' }).click();
  const codes = section.getByRole('list', { name: 'Backup codes' }).getByRole('listitem');
  await expect.poll(() => codes.count()).toBe(10);
  expect(await section.getByRole('link', { name: 'Download the codes' }).getAttribute('download')).toBe('tessera-backup-codes.txt');
  // Shown as enrolled: the regeneration of backup codes is offered, as for any enrolled user.
  await page.getByRole('heading', { name: 'MFA backup codes' }).waitFor();
  await checkPage(page, `${shots}-backup-codes`);
  return { secret, backupCodes: await codes.allTextContents() };
}

describe('the console, MFA for a user who has none', () => {
  it('a password user of an OPTIONAL tenant sets up an authenticator from the account page', async () => {
    const tenant = await createTestTenant(host.deps, { mfaMode: 'OPTIONAL' });
    opened = await openConsole(browser, host.url);
    const { page } = opened;

    // OPTIONAL: no enrollment at login, straight into the console.
    await signInWithPassword(page, tenant.admin.email, PASSWORD);
    await page.waitForURL('**/connections');
    await page.getByRole('link', { name: 'Your account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
    const { secret, backupCodes } = await enrollOnAccountPage(page, 'account-mfa');

    // The API agrees: enrolled, and the policy's LOGIN now asks this user for a code.
    totpSecrets.set(tenant.admin.email, secret);
    const session = await login(http, clock, tenant.admin.email);
    const me = await http.request('GET', '/v1/me', { token: session.accessToken });
    expect((me.body as { mfa_enrolled: boolean }).mfa_enrolled).toBe(true);

    // The backup codes were shown once: a reload shows the account as enrolled, without them or the offer.
    await page.reload();
    await page.getByRole('heading', { name: 'MFA backup codes' }).waitFor();
    expect(await page.getByRole('list', { name: 'Backup codes' }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Set up an authenticator' }).count()).toBe(0);
    expect(backupCodes).toHaveLength(10);
    await checkPage(page, 'account-mfa-enrolled');
  });

  it('the step-up prompt of a user with no authenticator explains and leads to the account page; once enrolled, a code', async () => {
    // MFA off while the user signs in (so no MFA in their session), then REQUIRED for creating PATs.
    const tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
    const admin = await login(http, clock, tenant.admin.email);
    const developer = `dev@${tenant.domain}`;
    await createUser(http, admin.accessToken, { email: developer, role: 'connector_builder' });
    opened = await openConsole(browser, host.url);
    const { page } = opened;
    await signInWithPassword(page, developer, PASSWORD);
    await page.waitForURL('**/connections');
    const changed = await http.request('PATCH', `/v1/tenants/${tenant.tenantId}/mfa-policy`, { token: admin.accessToken, body: { mfa_mode: 'REQUIRED', required_actions: ['CREATE_PAT'] } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);

    // Creating a PAT answers mfa_required: no code to ask this user for.
    await page.getByRole('link', { name: 'Access tokens' }).click();
    await page.getByLabel('Name').fill('ci reader');
    await page.getByLabel(/connections:read/).check();
    await page.getByRole('button', { name: 'Create the token' }).click();
    const explanation = page.getByRole('dialog', { name: 'A multi-factor check is needed' });
    await explanation.waitFor();
    expect(await explanation.getByRole('textbox').count()).toBe(0);
    expect(await explanation.getByRole('button', { name: /identity provider/ }).count()).toBe(0); // a password sign-in: no IdP to go back to
    await checkPage(page, 'step-up-not-enrolled');
    await explanation.getByRole('link', { name: 'Set up an authenticator on your account page' }).click();
    await page.waitForURL('**/account');
    expect(await page.getByRole('dialog').count()).toBe(0);
    const { secret } = await enrollOnAccountPage(page, 'account-mfa-after-step-up');

    // Enrolled: the same action now asks for a code (the enrollment itself is no step-up), and goes through.
    await page.getByRole('link', { name: 'Access tokens' }).click();
    await page.getByLabel('Name').fill('ci reader');
    await page.getByLabel(/connections:read/).check();
    await page.getByRole('button', { name: 'Create the token' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
    await dialog.waitFor();
    await checkPage(page, 'step-up-after-enrolling');
    await dialog.getByLabel('Authentication code').fill(await nextCode(secret));
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    const shown = (await page.locator('#new-token').textContent())!;
    expect(shown).toMatch(/^tsr_pat_/);
    await checkPage(page, 'step-up-token-created');
  });
});
