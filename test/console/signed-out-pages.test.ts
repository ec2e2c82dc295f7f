/**
 * The pages a signed-out person sees (issue 28: every main page at 1280 × 800 and 390 × 844,
 * no horizontal scroll, axe clean): sign-in with its email and password steps, the forgotten
 * password form and what it says once sent, the reset link's form and its refusal of a token
 * that is not one. The address typed is a long one with neither space nor hyphen, as work
 * addresses can be: nothing to wrap at, so it is what would push a narrow page wide.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, expectNoHorizontalScroll, launchBrowser, openConsole, startConsoleHost, CONSOLE_SIZES } from '../support/console-browser';
import { createTestTenant, type TestTenant } from '../support/identity-fixtures';
import type { TestHost } from '../support/test-host';

let host: TestHost;
let tenant: TestTenant;
let browser: Browser;
const longEmail = () => `mariafernanda.castellanosvillanueva@${tenant.domain}`;

beforeAll(async () => {
  host = await startConsoleHost();
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await host?.close();
});

/** The page as it is now: no sideways scroll, axe clean, a screenshot. */
async function check(page: Page, name: string): Promise<void> {
  await expectNoHorizontalScroll(page, name);
  await checkPage(page, name);
}

describe.each(CONSOLE_SIZES)('signed out, at $width × $height', (size) => {
  it('sign-in, the forgotten password and the reset link fit the window and are accessible', async () => {
    const { page, errors } = await openConsole(browser, host.url);
    await page.setViewportSize({ width: size.width, height: size.height });

    await page.goto('/sign-in');
    await page.getByRole('heading', { level: 1, name: 'Sign in to Tessera' }).waitFor();
    await check(page, `signed-out-sign-in-${size.name}`);
    await page.getByLabel('Work email').fill(longEmail());
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Password').waitFor();
    expect(await page.getByText('Signing in as').textContent()).toContain(longEmail());
    await check(page, `signed-out-sign-in-password-${size.name}`);

    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL('**/forgot-password');
    await page.getByRole('heading', { level: 1, name: 'Reset your password' }).waitFor();
    await check(page, `signed-out-forgot-password-${size.name}`);
    await page.getByLabel('Work email').fill(longEmail());
    await page.getByRole('button', { name: 'Send the reset link' }).click();
    await page.getByRole('status').filter({ hasText: `If an account uses ${longEmail()}, an email with a reset link is on its way.` }).waitFor();
    await check(page, `signed-out-forgot-password-sent-${size.name}`);

    await page.goto('/reset-password?token=x');
    await page.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor();
    await check(page, `signed-out-reset-password-${size.name}`);
    await page.getByLabel(/^New password/).fill('a long enough passphrase here');
    await page.getByRole('button', { name: 'Set the password' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/\S/);
    await check(page, `signed-out-reset-password-refused-${size.name}`);
    expect(errors).toEqual([]);
  });
});
