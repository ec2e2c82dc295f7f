/**
 * The console by keyboard alone:
 * - Signing in with Tab, typing and Enter (focus follows each step of the form), the skip link
 *   first on a signed-in page, a visible focus ring, and a navigation that puts focus at the
 *   start of the new page rather than leaving it in the menu.
 * - When the password step hands over to the MFA challenge, focus moves to it, and the sign-in
 *   ends from there by keyboard.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, launchBrowser, openConsole, startConsoleHost } from '../support/console-browser';
import { totpCode } from '../../shared/crypto/totp';
import { api } from '../support/http-client';
import { createTestTenant, login, PASSWORD, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import type { TestHost } from '../support/test-host';

const clock = new MovableClock();
let host: TestHost;
let tenant: TestTenant;
let browser: Browser;

beforeAll(async () => {
  host = await startConsoleHost({ clock });
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await host?.close();
});

/** The focused element: its id, tag, accessible text and the focus ring the browser draws. */
const focused = (page: Page) => page.evaluate(() => {
  const element = document.activeElement as HTMLElement | null;
  const style = element ? getComputedStyle(element) : undefined;
  return { id: element?.id ?? '', tag: element?.tagName.toLowerCase() ?? '', text: element?.textContent?.trim() ?? '', outline: style ? `${style.outlineStyle} ${style.outlineWidth}` : '', left: element?.getBoundingClientRect().left ?? -1 };
});

describe('the console, by keyboard', () => {
  it('signs in, skips to the content and moves between pages without a mouse, with focus always visible', async () => {
    const { page, errors } = await openConsole(browser, host.url);
    await page.goto('/sign-in');
    await page.getByLabel('Work email').waitFor();

    await page.keyboard.press('Tab');
    expect((await focused(page)).id).toBe('email');
    expect((await focused(page)).outline).toBe('solid 3px');
    await page.keyboard.type(tenant.admin.email);
    await page.keyboard.press('Enter');
    // The password step replaces the email form: focus goes to its field, not back to the page.
    await page.getByLabel('Password').waitFor();
    await expect.poll(async () => (await focused(page)).id).toBe('password');
    // Back to the email step by keyboard, and forward again: focus follows both ways.
    await page.keyboard.press('Shift+Tab');
    expect((await focused(page)).text).toBe('Use another email');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await focused(page)).id).toBe('email');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await focused(page)).id).toBe('password');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/connections');
    await page.getByRole('heading', { level: 1, name: 'Connections' }).waitFor();
    // The signed-in frame replaced the sign-in page: focus is at its heading, not on the body.
    await expect.poll(async () => (await focused(page)).tag).toBe('h1');
    expect((await focused(page)).text).toBe('Connections');

    // First stop on a signed-in page as loaded: the skip link, shown on screen while it has focus.
    const loaded = async () => {
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Connections' }).waitFor();
    };
    await loaded();
    await page.keyboard.press('Tab');
    const skip = await focused(page);
    expect(skip.text).toBe('Skip to content');
    expect(skip.left).toBeGreaterThanOrEqual(0);
    expect(skip.outline).toBe('solid 3px');
    await page.keyboard.press('Enter');
    expect((await focused(page)).id).toBe('content');

    // Through the menu to the tokens page with Tab and Enter; focus lands on the new page's content.
    await loaded();
    let stops = 0;
    while ((await focused(page)).text !== 'Access tokens') {
      await page.keyboard.press('Tab');
      if (++stops > 10) throw new Error('the menu has no Access tokens link within ten Tab stops');
    }
    expect((await focused(page)).outline).toBe('solid 3px');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/tokens');
    await expect.poll(async () => (await focused(page)).text).toBe('Personal access tokens');
    expect((await focused(page)).tag).toBe('h1');
    await checkPage(page, 'keyboard-tokens');
    expect(errors).toEqual([]);
  });

  it('moves focus to the MFA challenge when the password step hands over to it, and signs in from there by keyboard', async () => {
    const mfaTenant = await createTestTenant(host.deps); // MFA REQUIRED: the first login over HTTP enrolls
    const { totpSecret } = await login(api(host.url), clock, mfaTenant.admin.email);
    const { page, errors } = await openConsole(browser, host.url);
    await page.goto('/sign-in');
    await page.getByLabel('Work email').waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.type(mfaTenant.admin.email);
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await focused(page)).id).toBe('password');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/mfa/challenge');
    // The password form is gone: focus is at the start of the challenge page (its heading), not on the body.
    await expect.poll(async () => (await focused(page)).tag).toBe('h1');
    await page.keyboard.press('Tab');
    expect((await focused(page)).id).toBe('code');
    expect((await focused(page)).outline).toBe('solid 3px');
    // The code is typed for this second and checked 30 s later (one step of drift the window
    // allows): held, so that the seconds a loaded machine takes to type it cannot add a step.
    clock.hold();
    await page.keyboard.type(await totpCode(totpSecret!, clock.epochSeconds()));
    clock.advance(30);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/connections');
    await page.getByRole('heading', { level: 1, name: 'Connections' }).waitFor();
    // Signed in: the signed-in frame replaced the public one, and focus is at its heading.
    await expect.poll(async () => (await focused(page)).tag).toBe('h1');
    // Signing out hands back to the sign-in page, with focus at its start; Tab reaches the email.
    await page.getByRole('button', { name: 'Sign out' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL('**/sign-in');
    await expect.poll(async () => (await focused(page)).tag).toBe('h1');
    await page.keyboard.press('Tab');
    expect((await focused(page)).id).toBe('email');
    expect(errors).toEqual([]);
  });
});
