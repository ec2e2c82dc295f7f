/**
 * The console's tenant administration, as a tenant admin, in one case: users (a problem's field
 * error beside its field, then one created in this workspace, the role changed, disabled and
 * enabled), the MFA policy, workspaces (one created, its ownership transferred, the switcher
 * moving there), and the two audit logs that record it.
 * MFA is off in this tenant: enrollment and step-up have their own test (admin-journey).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, launchBrowser, openConsole, signInWithPassword, startConsoleHost } from '../support/console-browser';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login, PASSWORD, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
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

describe('the console, as a tenant admin', () => {
  it('creates a user, changes the role, disables and enables them, sets the MFA policy, creates a workspace, transfers and switches to it, and reads both audit logs', async () => {
    const { page, errors } = await openConsole(browser, host.url);
    await signInWithPassword(page, tenant.admin.email, PASSWORD);
    await page.waitForURL('**/connections');

    // Users: a problem's errors[].path lands beside its field, then a user is created.
    const newcomer = `newcomer@${tenant.domain}`;
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByLabel('Email').fill(newcomer);
    await page.getByLabel('First password (optional)').fill('short');
    await page.getByRole('button', { name: 'Create the user' }).click();
    await page.locator('#password-error').waitFor();
    expect(await page.getByLabel('First password (optional)').getAttribute('aria-invalid')).toBe('true');
    await checkPage(page, 'users-field-error');
    await page.getByLabel('First password (optional)').fill(`${PASSWORD} again`);
    await page.getByRole('button', { name: 'Create the user' }).click();
    await page.getByText(`${newcomer} can now sign in.`).waitFor();
    const row = page.getByRole('row').filter({ hasText: newcomer });
    await page.getByLabel(`Role of ${newcomer}`).selectOption('connector_builder');
    await page.getByRole('dialog').getByRole('button', { name: 'Make them connector_builder' }).click();
    const adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
    const rolesOf = async (email: string) =>
      ((await http.request('GET', '/v1/users', { token: adminToken })).body as { users: { email: string; memberships: { role: string }[] }[] }).users.find((u) => u.email === email)?.memberships.map((m) => m.role);
    await expect.poll(() => rolesOf(newcomer)).toEqual(['connector_builder']);
    await page.getByRole('button', { name: `Disable ${newcomer}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Disable the user' }).click();
    await expect.poll(() => row.locator('td.user-status').textContent()).toBe('disabled');
    expect((await http.request('POST', '/v1/auth/login', { body: { email: newcomer, password: `${PASSWORD} again` } })).status).toBe(401);
    await checkPage(page, 'users');
    await page.getByRole('button', { name: `Enable ${newcomer}` }).click();
    await expect.poll(() => row.locator('td.user-status').textContent()).toBe('active');

    // The MFA policy.
    await page.getByRole('link', { name: 'MFA policy' }).click();
    await page.getByLabel(/^Optional/).check();
    await page.getByLabel('CREATE_PAT').uncheck();
    await page.getByRole('button', { name: 'Save the policy' }).click();
    await page.getByText('The policy is saved.').waitFor();
    const policy = (await http.request('GET', `/v1/tenants/${tenant.tenantId}/mfa-policy`, { token: adminToken })).body as { mfa_mode: string; required_actions: string[] };
    expect(policy.mfa_mode).toBe('OPTIONAL');
    expect(policy.required_actions).toEqual(['LOGIN', 'ROTATE_PAT', 'REVOKE_PAT', 'CHANGE_PASSWORD', 'MANAGE_USERS', 'UPDATE_IDP_CONFIG']);
    await checkPage(page, 'mfa-policy');

    // Workspaces: a new one, its ownership handed to the newcomer, then the switcher moves there.
    await page.getByRole('link', { name: 'Workspaces' }).click();
    await page.getByLabel('New workspace name').fill('Platform');
    await page.getByRole('button', { name: 'Create the workspace' }).click();
    await page.getByText('Workspace Platform created.').waitFor();
    await page.getByLabel('Owner of Platform').selectOption({ label: newcomer });
    await page.getByRole('dialog').getByRole('button', { name: 'Transfer ownership' }).click();
    await page.getByText(`Platform now belongs to ${newcomer}.`).waitFor();
    await checkPage(page, 'workspaces');
    const platform = ((await http.request('GET', '/v1/workspaces', { token: adminToken })).body as { workspaces: { id: string; name: string; owner_id: string }[] }).workspaces.find((w) => w.name === 'Platform')!;
    expect(((await http.request('GET', '/v1/users', { token: adminToken })).body as { users: { id: string; email: string }[] }).users.find((u) => u.id === platform.owner_id)?.email).toBe(newcomer);
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByLabel('Workspace', { exact: true }).selectOption({ label: 'Platform' });
    await page.getByRole('link', { name: 'Workspaces' }).click(); // a re-render shows the session's workspace, not the DOM's choice
    await expect.poll(() => page.getByLabel('Workspace', { exact: true }).inputValue()).toBe(platform.id);

    // The identity log has all of it, newest first; the action filter narrows it.
    await page.getByRole('link', { name: 'Identity audit log' }).click();
    await expect.poll(() => page.locator('td.audit-action').allTextContents()).toEqual(expect.arrayContaining(['Mfa policy updated', 'User enabled', 'User disabled', 'User updated', 'User created']));
    await page.getByLabel('Action').selectOption('user_disabled');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(async () => [...new Set(await page.locator('td.audit-action').allTextContents())]).toEqual(['User disabled']);
    await checkPage(page, 'audit-identity');
    await page.getByRole('link', { name: 'Workspace audit log' }).click();
    await page.getByRole('heading', { level: 1, name: 'Workspace audit log' }).waitFor();
    await checkPage(page, 'audit-workspace');
    expect(errors).toEqual([]);
  });
});
