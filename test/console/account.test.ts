/**
 * The console's account page, as an enrolled user, in one case: new MFA backup codes (shown
 * once, the old ones refused from then on), a password change (a wrong current password and a
 * refused new one shown beside their fields first), and the linked SSO identities (none here).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../shared/crypto/totp';
import { checkPage, launchBrowser, openConsole, signInWithPassword, startConsoleHost } from '../support/console-browser';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login, PASSWORD, type Session, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import type { TestHost } from '../support/test-host';

const clock = new MovableClock();
let host: TestHost;
let http: HttpClient;
let tenant: TestTenant;
let browser: Browser;
let enrolled: Session;
const NEW_PASSWORD = 'a brand new passphrase for the account';

beforeAll(async () => {
  host = await startConsoleHost({ clock });
  http = api(host.url);
  tenant = await createTestTenant(host.deps); // MFA REQUIRED: the first login over HTTP enrolls
  enrolled = await login(http, clock, tenant.admin.email);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await host?.close();
});

/** Whether a password login answered with this backup code succeeds. */
async function backupCodeWorks(password: string, backupCode: string): Promise<boolean> {
  const started = await http.request('POST', '/v1/auth/login', { body: { email: tenant.admin.email, password } });
  expect(started.status).toBe(200);
  const mfaToken = (started.body as { mfa_token: string }).mfa_token;
  return (await http.request('POST', '/v1/mfa/challenge', { body: { mfa_token: mfaToken, backup_code: backupCode } })).status === 200;
}

describe('the console, your account', () => {
  it('makes new backup codes, changes the password with field errors first, and lists no linked identity', async () => {
    const { page, errors } = await openConsole(browser, host.url);
    await signInWithPassword(page, tenant.admin.email, PASSWORD);
    await page.waitForURL('**/mfa/challenge');
    // Held: typed for this second, checked 30 s on; real time must not add a step (one of drift is allowed).
    clock.hold();
    await page.getByLabel('Code from your authenticator app').fill(await totpCode(enrolled.totpSecret!, clock.epochSeconds()));
    clock.advance(30);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/connections');

    await page.getByRole('link', { name: 'Your account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
    await page.getByText('No identity provider account is linked to you.').waitFor();
    await checkPage(page, 'account');

    // Backup codes: ten new ones, shown once; an old one is refused, a new one signs in.
    await page.getByRole('button', { name: 'Make new backup codes' }).click();
    const ask = page.getByRole('dialog', { name: 'Make new backup codes?' });
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'hidden' });
    expect(await page.getByRole('list', { name: 'Backup codes' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Make new backup codes' }).click();
    await ask.getByRole('button', { name: 'Make new backup codes' }).click();
    const codes = page.getByRole('list', { name: 'Backup codes' }).getByRole('listitem');
    await expect.poll(() => codes.count()).toBe(10);
    const shown = await codes.allTextContents();
    expect(shown.some((c) => enrolled.backupCodes!.includes(c))).toBe(false);
    expect(await page.getByRole('link', { name: 'Download the codes' }).getAttribute('download')).toBe('tessera-backup-codes.txt');
    await checkPage(page, 'account-backup-codes');
    expect(await backupCodeWorks(PASSWORD, enrolled.backupCodes![0]!)).toBe(false);
    expect(await backupCodeWorks(PASSWORD, shown[0]!)).toBe(true);

    // Password: a wrong current one, then a refused new one, each beside its field; then the change.
    await page.getByLabel('Current password').fill('not my password at all');
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change the password' }).click();
    await page.locator('#current_password-error').waitFor();
    expect(await page.getByLabel('Current password').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByLabel('New password').fill('too short');
    await page.getByRole('button', { name: 'Change the password' }).click();
    await page.locator('#new_password-error').waitFor();
    expect(await page.locator('#current_password-error').count()).toBe(0);
    await checkPage(page, 'account-password-error');
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change the password' }).click();
    await page.getByText('Your password is changed; your other sessions are signed out.').waitFor();
    expect((await http.request('POST', '/v1/auth/login', { body: { email: tenant.admin.email, password: PASSWORD } })).status).toBe(401);
    expect((await http.request('POST', '/v1/auth/login', { body: { email: tenant.admin.email, password: NEW_PASSWORD } })).status).toBe(200);
    expect(errors).toEqual([]);
  });
});
