/**
 * The mass-removal guard in the console:
 * - A run held by it shows its `safety` error (message and action) in the run history, and an
 *   admin can run again accepting the removals, through a real modal confirmation (focus into
 *   it and back; Cancel starts nothing); the confirmed run applies the drop.
 * - A viewer sees the held run and its error but no control to accept the removals.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, launchBrowser, openConsole, signInWithPassword, startConsoleHost } from '../support/console-browser';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, login, PASSWORD, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { buildOrg, oktaToken, oktaUser, startFakeOkta, type FakeOkta } from '../../infra/local/stand-ins/okta';
import { countByKind, listAll, runToEnd, type EntityBody, type RunBody } from '../support/runs';
import type { TestHost } from '../support/test-host';
import { createConnection as createConnectionOver, oktaConnectionBody } from '../support/connections';

const clock = new MovableClock();
let okta: FakeOkta;
let host: TestHost;
let http: HttpClient;
let tenant: TestTenant;
let browser: Browser;
let adminToken: string;
/** Held by the guard in the browser, then confirmed there. */
let adminConnection: string;
/** Held by the guard over the API, before the viewer looks at it. */
let viewerConnection: string;
const viewerEmail = () => `viewer@${tenant.domain}`;

/** An org of `count` users, no groups or apps: the users track holds an Account and a Principal per user. */
const orgOf = (count: number) => buildOrg({ users: Array.from({ length: count }, (_, i) => oktaUser(i + 1)), groups: [], members: {}, apps: [], appGroups: {} });
const HELD_MESSAGE = 'The users track found 40 entities where the last complete read found 240; its 200 removals were not applied.';

const createConnection = (name: string) => createConnectionOver(http, adminToken, oktaConnectionBody(name, oktaToken));

const runsOf = (id: string) => listAll<RunBody & { confirm_removals: boolean }>(http, adminToken, `/v1/connections/${id}/runs`, 'runs');
const inventoryOf = async (id: string) => countByKind(await listAll<EntityBody>(http, adminToken, `/v1/connections/${id}/entities`, 'entities'));

beforeAll(async () => {
  okta = await startFakeOkta({ org: orgOf(120) });
  host = await startConsoleHost({ clock, env: { TESSERA_CONNECTOR_ENDPOINTS: JSON.stringify({ okta: okta.url }) } });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
  await createUser(http, adminToken, { email: viewerEmail(), role: 'viewer' });
  adminConnection = await createConnection('Okta (admin)');
  viewerConnection = await createConnection('Okta (viewer)');
  // Both read 120 users completely; then most of the org disappears from the token's view.
  for (const id of [adminConnection, viewerConnection]) expect(await runToEnd(http, host, adminToken, id)).toMatchObject({ status: 'succeeded', counts: { entities: { Account: 120, Principal: 120 } } });
  okta.state.org = orgOf(20);
  expect(await runToEnd(http, host, adminToken, viewerConnection)).toMatchObject({ status: 'partial', errors: [expect.objectContaining({ category: 'safety', message: HELD_MESSAGE })] });
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await host?.close();
  await okta?.close();
});

const newestStatus = (page: Page) => page.locator('td.run-status').first().textContent();
/** What has focus: the label of the focused element and whether it sits in an open dialog. */
const focused = (page: Page) => page.evaluate(() => ({ text: document.activeElement?.textContent ?? null, inDialog: Boolean(document.activeElement?.closest('dialog[open]')) }));
const runRows = (page: Page) => page.getByRole('table', { name: 'Runs of this connection' }).locator('tbody tr');

describe('the console, a run held by the mass-removal guard', () => {
  it('shows the safety error, and runs again accepting the removals only after the confirmation', async () => {
    const { page, errors } = await openConsole(browser, host.url);
    await signInWithPassword(page, tenant.admin.email, PASSWORD);
    await page.waitForURL('**/connections');
    await page.getByRole('link', { name: 'Okta (admin)' }).click();
    await page.waitForURL(`**/connections/${adminConnection}`);

    // The run from the page is held: partial, its error with message and action, nothing removed.
    await page.getByRole('button', { name: 'Run now' }).click();
    await expect.poll(() => newestStatus(page), { timeout: 120_000 }).toBe('partial');
    const [held] = await runsOf(adminConnection);
    expect(held).toMatchObject({ status: 'partial', errors: [{ category: 'safety', message: HELD_MESSAGE }] });
    const newestRow = runRows(page).first();
    await expect.poll(() => newestRow.locator('.run-error-safety').textContent()).toBe(`safety: ${HELD_MESSAGE} ${held!.errors[0]!.action}`);
    expect(await inventoryOf(adminConnection)).toEqual({ Account: 120, Principal: 120 });
    // Only the newest run offers it; the older (successful) one shows no error.
    expect(await runRows(page).nth(1).locator('td').last().textContent()).toBe('none');
    const accept = page.getByRole('button', { name: 'Run again and accept the removals' });
    expect(await accept.count()).toBe(1);
    await checkPage(page, 'connection-run-held');

    // Cancel: the dialog closes, focus is back on the button, no run starts. Escape the same.
    const dialog = page.getByRole('dialog', { name: 'Accept the removals?' });
    await accept.click();
    await dialog.waitFor();
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    expect(await dialog.textContent()).toContain(HELD_MESSAGE);
    expect(await focused(page)).toEqual({ text: 'Cancel', inDialog: true });
    await checkPage(page, 'connection-confirm-removals');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await focused(page)).toEqual({ text: 'Run again and accept the removals', inDialog: false });
    await accept.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await focused(page)).toEqual({ text: 'Run again and accept the removals', inDialog: false });
    await host.runQueue.idle();
    expect(await runsOf(adminConnection)).toHaveLength(2);
    expect(await inventoryOf(adminConnection)).toEqual({ Account: 120, Principal: 120 });

    // Confirmed: a run with confirm_removals is shown, ends succeeded, and the inventory shrinks.
    await accept.click();
    await dialog.getByRole('button', { name: 'Run and delete them' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => runRows(page).count()).toBe(3);
    await expect.poll(() => newestStatus(page), { timeout: 120_000 }).toBe('succeeded');
    const [confirmed] = await runsOf(adminConnection);
    expect(confirmed).toMatchObject({ status: 'succeeded', trigger: 'manual', confirm_removals: true, errors: [], changes: { entities_removed: 200 } });
    expect(await inventoryOf(adminConnection)).toEqual({ Account: 20, Principal: 20 });
    expect(await newestRow.locator('td').last().textContent()).toBe('none');
    expect(await accept.count()).toBe(0);
    expect(errors).toEqual([]);
  }, 240_000);

  it('shows a viewer the held run and its error, with no control to accept the removals', async () => {
    const { page, errors } = await openConsole(browser, host.url);
    await signInWithPassword(page, viewerEmail(), PASSWORD);
    await page.waitForURL('**/connections');
    await page.getByRole('link', { name: 'Okta (viewer)' }).click();
    await page.waitForURL(`**/connections/${viewerConnection}`);
    const safety = runRows(page).first().locator('.run-error-safety');
    await expect.poll(() => safety.textContent()).toContain(HELD_MESSAGE);
    expect(await newestStatus(page)).toBe('partial');
    expect(await page.getByRole('button', { name: 'Run again and accept the removals' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Run now' }).count()).toBe(0);
    await checkPage(page, 'connection-run-held-viewer');
    expect(errors).toEqual([]);
  }, 120_000);
});
