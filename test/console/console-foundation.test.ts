/**
 * The console as a product (issue 28's foundation), in Chromium at 1280 × 800 and 390 × 844:
 * - Every main page reflows without a sideways page scroll (also at 320 px) and is axe clean at
 *   both sizes.
 * - The navigation is one row when wide and a Menu disclosure when narrow; focus lands on the
 *   new page's heading with no ring round it.
 * - The home page says what needs attention (a failed and a partial last run with its first
 *   error and what to do, a connection never run, an overdue one with when it was due; a healthy
 *   one not listed) and the recent access changes by name; the connection list shows each last
 *   run as a badge with a relative time, the exact time on hover.
 * - A role change, disabling a user, an owner transfer, revoking a token and deleting a
 *   connection each ask in a dialog first; success messages go away.
 * - The role-change and disable dialogs fit a phone, axe clean; Cancel changes nothing.
 * - A viewer who opens `/connections/new` or `/workspaces` by its address is told the role it
 *   needs, and shown no form.
 * - The audit logs name actors and targets and filter by a known action and a date range.
 * - The new-connection form prefills no secret, reports every missing field at once, shows hints
 *   as text and picks the time zone from a list.
 * - The AWS integration's form prefills neither a secret nor an example value; its example
 *   secrets appear nowhere on the page.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READABLE_TIME_FIELDS } from '../../console/src/components/readable-time';
import { awsExamples } from '../../shared/connectors/aws/integration';
import { checkPage, expectNoHorizontalScroll, launchBrowser, openConsole, signInWithPassword, startConsoleHost, PHONE, WIDE } from '../support/console-browser';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, login, PASSWORD, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { buildOrg, oktaApp, oktaGroup, oktaToken, oktaUser, startFakeOkta, type FakeOkta } from '../../infra/local/stand-ins/okta';
import { runToEnd, type RunBody } from '../support/runs';
import type { TestHost } from '../support/test-host';
import { createConnection as createConnectionOver, oktaConnectionBody } from '../support/connections';


const clock = new MovableClock();
let okta: FakeOkta;
let host: TestHost;
let http: HttpClient;
let tenant: TestTenant;
let browser: Browser;
let adminToken: string;
let goodConnection: string;
let brokenRun: RunBody;
let heldRun: RunBody;
let overdueConnection: string;
const viewerEmail = () => `viewer@${tenant.domain}`;
const memberEmail = () => `member@${tenant.domain}`;
const ownerEmail = () => `owner@${tenant.domain}`;

const alice = oktaUser(1, { login: 'alice@acme.test', email: 'alice@example.com', firstName: 'Alice', lastName: 'Archer' });
const bob = oktaUser(2, { login: 'bob@acme.test', email: 'bob@example.com', firstName: 'Bob', lastName: 'Baker' });
const admins = oktaGroup(1, 'Admins');
const adminConsole = oktaApp(1, 'Admin Console');
/** The org with Admins' members, and `extra` more users beside Alice and Bob. */
const orgWith = (members: string[], extra = 0) => buildOrg({ users: [alice, bob, ...Array.from({ length: extra }, (_, i) => oktaUser(10 + i))], groups: [admins], members: { [admins.id]: members }, apps: [adminConsole], appGroups: { [adminConsole.id]: [admins.id] } });

const createConnection = (name: string, apiToken = oktaToken) => createConnectionOver(http, adminToken, oktaConnectionBody(name, apiToken));

beforeAll(async () => {
  okta = await startFakeOkta({ org: orgWith([bob.id]) });
  host = await startConsoleHost({ clock, env: { TESSERA_CONNECTOR_ENDPOINTS: JSON.stringify({ okta: okta.url }) } });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
  await createUser(http, adminToken, { email: viewerEmail(), role: 'viewer' });
  await createUser(http, adminToken, { email: memberEmail(), role: 'viewer' });
  await createUser(http, adminToken, { email: ownerEmail(), role: 'viewer' });
  // Good: a baseline run, then Alice joins Admins, so the second run records that she gained the app.
  goodConnection = await createConnection('Okta (good)');
  expect((await runToEnd(http, host, adminToken, goodConnection)).status).toBe('succeeded');
  okta.state.org = orgWith([alice.id, bob.id]);
  expect((await runToEnd(http, host, adminToken, goodConnection)).status).toBe('succeeded');
  // Broken: a token the provider refuses, so its run fails with a reason and a fix.
  const broken = await createConnection('Okta (broken)', '00WrongToken_0123456789abcdefabcdefabcdef');
  brokenRun = await runToEnd(http, host, adminToken, broken);
  expect(brokenRun.status).toBe('failed');
  expect(brokenRun.errors.length).toBeGreaterThan(0);
  await createConnection('Okta (fresh)');
  // Held: its first run reads 60 more users, who are gone for the second; the mass-removal
  // guard holds that run (partial, a safety error with what to do).
  const held = await createConnection('Okta (held)');
  okta.state.org = orgWith([alice.id, bob.id], 60);
  expect((await runToEnd(http, host, adminToken, held)).status).toBe('succeeded');
  okta.state.org = orgWith([alice.id, bob.id]);
  heldRun = await runToEnd(http, host, adminToken, held);
  expect(heldRun).toMatchObject({ status: 'partial', errors: [expect.objectContaining({ category: 'safety' })] });
  // Overdue: made two days ago (the host's clock set back, a token of then), so its daily
  // schedule was due over a day ago; no scheduler runs here, and a manual run (it ran, so it is
  // not "never run") leaves the schedule's slot where it was.
  clock.advance(-2 * 86_400);
  const thenToken = (await login(http, clock, tenant.admin.email)).accessToken;
  overdueConnection = await createConnectionOver(http, thenToken, oktaConnectionBody('Okta (overdue)', oktaToken));
  clock.advance(2 * 86_400);
  expect((await runToEnd(http, host, adminToken, overdueConnection)).status).toBe('succeeded');
  const { next_run_at: due } = (await http.request('GET', `/v1/connections/${overdueConnection}`, { token: adminToken })).body as { next_run_at: string };
  expect(Date.parse(due)).toBeLessThan(Date.now() - 86_400_000);
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await host?.close();
  await okta?.close();
});

/** The page is no wider than the window: nothing scrolls sideways (WCAG 1.4.10 reflow). */
const pageWidth = (page: Page) => page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
async function expectNoSideScroll(page: Page, where: string) {
  const { scrollWidth, innerWidth } = await pageWidth(page);
  expect(scrollWidth, `${where}: page ${scrollWidth} px wide in a ${innerWidth} px window`).toBeLessThanOrEqual(innerWidth);
}

/**
 * The open dialog fits the window: the page does not scroll sideways, and nothing in the dialog
 * (a modal sits above the page, so it makes no page scroll of its own) reaches past the window's
 * edge or scrolls sideways inside it.
 */
async function expectDialogFits(page: Page, what: string) {
  await expectNoHorizontalScroll(page, what);
  const fit = await page.evaluate(() => {
    const dialog = document.querySelector('dialog[open]')!;
    const width = document.documentElement.clientWidth;
    const past = [dialog, ...Array.from(dialog.querySelectorAll('*'))].filter((e) => e.getBoundingClientRect().right > width + 1 || e.getBoundingClientRect().left < -1);
    return { past: past.map((e) => `${e.tagName.toLowerCase()} "${(e.textContent ?? '').slice(0, 30)}"`).slice(0, 5), inner: dialog.scrollWidth - dialog.clientWidth };
  });
  expect(fit, what).toEqual({ past: [], inner: 0 });
}

/** What has focus after a navigation, and the ring drawn round it (and round the content). */
const focusAfterNavigation = (page: Page) => page.evaluate(() => {
  const active = document.activeElement as HTMLElement | null;
  const content = document.getElementById('content')!;
  return {
    tag: active?.tagName ?? null,
    text: active?.textContent ?? null,
    outline: active ? getComputedStyle(active).outlineStyle : null,
    contentOutline: getComputedStyle(content).outlineStyle,
  };
});

async function signedIn(email: string, viewport: { width: number; height: number } = WIDE) {
  const opened = await openConsole(browser, host.url);
  await opened.page.setViewportSize(viewport);
  await signInWithPassword(opened.page, email, PASSWORD);
  await opened.page.waitForURL('**/connections');
  return opened;
}

const MAIN_PAGES = () => [
  ['home', '/', 'Home'],
  ['connections', '/connections', 'Connections'],
  ['connection', `/connections/${goodConnection}`, 'Okta (good)'],
  ['connection-new', '/connections/new', 'New connection'],
  ['tokens', '/tokens', 'Personal access tokens'],
  ['users', '/users', 'Users'],
  ['audit', '/audit', 'Workspace audit log'],
  ['audit-identity', '/audit/identity', 'Identity audit log'],
  ['mfa-policy', '/settings/mfa', 'MFA policy'],
  ['single-sign-on', '/settings/sso', 'Single sign-on'],
  ['workspaces', '/workspaces', 'Workspaces'],
  ['account', '/account', 'Your account'],
] as const;

describe('the console foundation', () => {
  it('reflows every main page at 1280, 390 and 320 px without a sideways scroll, axe clean at both sizes', async () => {
    const { page, errors } = await signedIn(tenant.admin.email);
    for (const viewport of [WIDE, PHONE]) {
      await page.setViewportSize(viewport);
      for (const [name, path, heading] of MAIN_PAGES()) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        await page.waitForLoadState('networkidle');
        await expectNoSideScroll(page, `${path} at ${viewport.width} px`);
        await checkPage(page, `foundation-${name}-${viewport.width}`);
      }
    }
    await page.setViewportSize({ width: 320, height: 700 });
    for (const [, path, heading] of MAIN_PAGES()) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await page.waitForLoadState('networkidle');
      await expectNoSideScroll(page, `${path} at 320 px`);
    }
    expect(errors).toEqual([]);
  });

  it('keeps the navigation on one row when wide, folds it behind a Menu button when narrow, and focuses the new heading without a ring', async () => {
    const { page, errors } = await signedIn(tenant.admin.email);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const links = nav.getByRole('link');
    await nav.getByRole('link', { name: 'Workspaces' }).waitFor();
    expect(await links.count()).toBe(11); // a tenant admin sees every page (People and Access history included)
    expect(await page.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
    const rows = new Set<number>();
    for (const box of await Promise.all((await links.all()).map((l) => l.boundingBox()))) rows.add(Math.round(box!.y));
    expect([...rows]).toHaveLength(1);

    // A click on a link: focus goes to the new page's h1, with no outline round it or the page.
    await nav.getByRole('link', { name: 'Users' }).click();
    await page.waitForURL('**/users');
    await expect.poll(() => focusAfterNavigation(page)).toEqual({ tag: 'H1', text: 'Users', outline: 'none', contentOutline: 'none' });

    await page.setViewportSize(PHONE);
    const menu = page.getByRole('button', { name: 'Menu' });
    expect(await menu.isVisible()).toBe(true);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await nav.getByRole('link', { name: 'Workspaces' }).isVisible()).toBe(false);
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await nav.getByRole('link', { name: 'Workspaces' }).click();
    await page.waitForURL('**/workspaces');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await nav.getByRole('link', { name: 'Workspaces' }).isVisible()).toBe(false);
    await expect.poll(() => focusAfterNavigation(page)).toEqual({ tag: 'H1', text: 'Workspaces', outline: 'none', contentOutline: 'none' });
    await menu.click();
    await checkPage(page, 'foundation-menu-open-390');
    expect(errors).toEqual([]);
  });

  it('says on the home page what needs attention, and shows each connection last run as a badge with a relative time', async () => {
    const { page, errors } = await signedIn(tenant.admin.email);
    await page.getByRole('link', { name: 'Home' }).click();
    const attention = page.getByRole('region', { name: 'Needs attention' });
    const broken = attention.getByRole('listitem').filter({ hasText: 'Okta (broken)' });
    await broken.waitFor();
    expect(await broken.textContent()).toContain('last run failed');
    expect(await broken.textContent()).toContain(brokenRun.errors[0]!.message);
    expect(await broken.textContent()).toContain(`What to do: ${brokenRun.errors[0]!.action}`);
    expect(await attention.getByRole('listitem').filter({ hasText: 'Okta (fresh)' }).textContent()).toContain('has never run');
    expect(await attention.getByRole('listitem').filter({ hasText: 'Okta (good)' }).count()).toBe(0);
    // A partial run (held by the guard): its first error and what to do.
    const held = attention.getByRole('listitem').filter({ hasText: 'Okta (held)' });
    expect(await held.textContent()).toContain('last run was partial');
    expect(await held.textContent()).toContain(heldRun.errors[0]!.message);
    expect(await held.textContent()).toContain(`What to do: ${heldRun.errors[0]!.action}`);
    // An overdue schedule: when it was due, exact on hover.
    const overdue = attention.getByRole('listitem').filter({ hasText: 'Okta (overdue)' });
    expect(await overdue.locator('.badge').textContent()).toBe('overdue');
    expect(await overdue.textContent()).toMatch(/was due to run (yesterday|\d+ days ago) and has not\./);
    const { next_run_at: due } = (await http.request('GET', `/v1/connections/${overdueConnection}`, { token: adminToken })).body as { next_run_at: string };
    expect(await overdue.locator('time').getAttribute('datetime')).toBe(due);

    const changes = (await http.request('GET', '/v1/access-changes', { token: adminToken })).body as { access_changes: { change: string; person: { display_name: string }; target: { display_name: string } }[] };
    const gained = changes.access_changes.find((c) => c.change === 'gained')!;
    expect(gained).toBeDefined();
    const recent = page.getByRole('region', { name: 'Recent access changes' }).getByRole('listitem');
    await recent.first().waitFor();
    expect(await recent.filter({ hasText: `${gained.person.display_name} gained ${gained.target.display_name}` }).count()).toBeGreaterThan(0);
    for (const viewport of [WIDE, PHONE]) {
      await page.setViewportSize(viewport);
      // Each item and its reason on screen at both sizes.
      for (const [item, reason] of [
        [broken, brokenRun.errors[0]!.message],
        [held, heldRun.errors[0]!.message],
        [overdue, 'and has not.'],
        [attention.getByRole('listitem').filter({ hasText: 'Okta (fresh)' }), 'has never run.'],
      ] as const) expect(await item.getByText(reason).isVisible(), `${reason} at ${viewport.width}`).toBe(true);
      await expectNoSideScroll(page, `home at ${viewport.width}`);
      await checkPage(page, `foundation-home-attention-${viewport.width}`);
    }

    await page.setViewportSize(WIDE);
    await page.getByRole('link', { name: 'Connections' }).click();
    const rowOf = (name: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name }) });
    await rowOf('Okta (broken)').locator('.badge', { hasText: 'failed' }).waitFor();
    await rowOf('Okta (good)').locator('.badge', { hasText: 'succeeded' }).waitFor();
    expect(await rowOf('Okta (fresh)').getByRole('cell', { name: 'never' }).count()).toBe(1);
    // Relative text; the exact time in the reader's locale and zone on hover (title); UTC in datetime.
    const time = rowOf('Okta (good)').locator('.last-run time');
    const datetime = (await time.getAttribute('datetime'))!;
    const exact = new Intl.DateTimeFormat('en-US', { ...READABLE_TIME_FIELDS, timeZone: 'UTC' }).format(new Date(datetime));
    expect(await time.getAttribute('title')).toBe(exact);
    expect(await time.textContent()).toMatch(/^(just now|\d+ \w+ ago|in \d+ \w+|yesterday|tomorrow)$/);
    expect(errors).toEqual([]);
  });

  it('asks in a dialog before a role change, disabling a user, an owner transfer, revoking a token and deleting a connection; success messages go away', async () => {
    const opened = await openConsole(browser, host.url);
    const { page, errors } = opened;
    await page.clock.install();
    await signInWithPassword(page, tenant.admin.email, PASSWORD);
    await page.waitForURL('**/connections');
    const dialog = page.getByRole('dialog');
    const userOf = async (email: string) => ((await http.request('GET', '/v1/users', { token: adminToken })).body as { users: { email: string; status: string; memberships: { role: string }[] }[] }).users.find((u) => u.email === email)!;

    // Role change: Cancel keeps the role (and the select shows it); confirming changes it.
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByLabel(`Role of ${memberEmail()}`).selectOption('connector_builder');
    await dialog.getByRole('heading', { name: `Make ${memberEmail()} connector_builder?` }).waitFor();
    await checkPage(page, 'foundation-confirm-role');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await userOf(memberEmail())).memberships.map((m) => m.role)).toEqual(['viewer']);
    expect(await page.getByLabel(`Role of ${memberEmail()}`).inputValue()).toBe('viewer');
    await page.getByLabel(`Role of ${memberEmail()}`).selectOption('connector_builder');
    await dialog.getByRole('button', { name: 'Make them connector_builder' }).click();
    await expect.poll(async () => (await userOf(memberEmail())).memberships.map((m) => m.role)).toEqual(['connector_builder']);
    const notice = page.getByRole('status').filter({ hasText: `${memberEmail()} is now connector_builder in this workspace.` });
    await notice.waitFor();
    await page.clock.runFor(7_000);
    await notice.waitFor({ state: 'detached' });

    // Disabling: the confirm button is the danger style; Cancel leaves the user active.
    await page.getByRole('button', { name: `Disable ${memberEmail()}` }).click();
    const disable = dialog.getByRole('button', { name: 'Disable the user' });
    expect(await disable.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(179, 38, 30)');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await userOf(memberEmail())).status).toBe('active');
    await page.getByRole('button', { name: `Disable ${memberEmail()}` }).click();
    await disable.click();
    await expect.poll(async () => (await userOf(memberEmail())).status).toBe('disabled');

    // Owner transfer.
    const workspace = await http.request('POST', '/v1/workspaces', { token: adminToken, body: { name: 'Platform' } });
    expect(workspace.status).toBe(201);
    const workspaceId = (workspace.body as { id: string }).id;
    const ownerOf = async () => ((await http.request('GET', '/v1/workspaces', { token: adminToken })).body as { workspaces: { id: string; owner_id: string }[] }).workspaces.find((w) => w.id === workspaceId)!.owner_id;
    const firstOwner = await ownerOf();
    await page.getByRole('link', { name: 'Workspaces' }).click();
    await page.getByLabel('Owner of Platform').selectOption({ label: ownerEmail() });
    await dialog.getByRole('heading', { name: `Transfer Platform to ${ownerEmail()}?` }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await ownerOf()).toBe(firstOwner);
    await page.getByLabel('Owner of Platform').selectOption({ label: ownerEmail() });
    await dialog.getByRole('button', { name: 'Transfer ownership' }).click();
    await expect.poll(ownerOf).not.toBe(firstOwner);

    // Revoking a token (one of the admin's own: the page lists the signed-in user's tokens).
    await page.getByRole('link', { name: 'Access tokens' }).click();
    await page.getByLabel('Name', { exact: true }).fill('ci reader');
    await page.getByLabel(/connections:read/).check();
    await page.getByRole('button', { name: 'Create the token' }).click();
    await page.getByRole('button', { name: 'Done' }).click();
    const tokenRow = page.getByRole('row').filter({ hasText: 'ci reader' });
    await page.getByRole('button', { name: 'Revoke ci reader' }).click();
    await dialog.getByRole('heading', { name: 'Revoke ci reader?' }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await tokenRow.locator('td.token-state').textContent()).toBe('active');
    await page.getByRole('button', { name: 'Revoke ci reader' }).click();
    await dialog.getByRole('button', { name: 'Revoke the token' }).click();
    await expect.poll(() => tokenRow.locator('td.token-state').textContent()).toBe('revoked');

    // Deleting a connection: Cancel keeps it; confirming deletes it and returns to the list.
    const doomed = await createConnection('Okta (to remove)');
    await page.goto(`/connections/${doomed}`);
    await page.getByRole('button', { name: 'Delete the connection' }).click();
    await dialog.getByRole('heading', { name: 'Delete the connection Okta (to remove)?' }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await http.request('GET', `/v1/connections/${doomed}`, { token: adminToken })).status).toBe(200);
    await page.getByRole('button', { name: 'Delete the connection' }).click();
    await dialog.getByRole('button', { name: 'Delete the connection' }).click();
    await page.waitForURL('**/connections');
    expect((await http.request('GET', `/v1/connections/${doomed}`, { token: adminToken })).status).toBe(404);

    // Saving a connection says so, and focus stays on Save changes.
    await page.goto(`/connections/${goodConnection}`);
    await page.getByLabel('Name', { exact: true }).fill('Okta (good, renamed)');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const saved = page.getByRole('status').filter({ hasText: 'Changes to Okta (good, renamed) saved.' });
    await saved.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Save changes');
    // It goes away, as the role change's did.
    await page.clock.runFor(7_000);
    await saved.waitFor({ state: 'detached' });
    await http.request('PATCH', `/v1/connections/${goodConnection}`, { token: adminToken, headers: { 'if-match': (await http.request('GET', `/v1/connections/${goodConnection}`, { token: adminToken })).headers.etag }, body: { name: 'Okta (good)' } });
    expect(errors).toEqual([]);
  });

  it('asks for a role change and for disabling a user in dialogs that fit a phone, axe clean; Cancel changes nothing', async () => {
    const { page, errors } = await signedIn(tenant.admin.email, PHONE);
    const dialog = page.getByRole('dialog');
    const userOf = async (email: string) => ((await http.request('GET', '/v1/users', { token: adminToken })).body as { users: { email: string; status: string; memberships: { role: string }[] }[] }).users.find((u) => u.email === email)!;
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
    await page.getByLabel(`Role of ${viewerEmail()}`).selectOption('connector_builder');
    await dialog.getByRole('heading', { name: `Make ${viewerEmail()} connector_builder?` }).waitFor();
    await expectDialogFits(page, 'role-change dialog at 390');
    await checkPage(page, 'foundation-confirm-role-390');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await userOf(viewerEmail())).memberships.map((m) => m.role)).toEqual(['viewer']);
    expect(await page.getByLabel(`Role of ${viewerEmail()}`).inputValue()).toBe('viewer');

    await page.getByRole('button', { name: `Disable ${viewerEmail()}` }).click();
    await dialog.getByRole('button', { name: 'Disable the user' }).waitFor();
    await expectDialogFits(page, 'disable dialog at 390');
    await checkPage(page, 'foundation-confirm-disable-390');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await userOf(viewerEmail())).status).toBe('active');
    expect(errors).toEqual([]);
  });

  it('shows a viewer who opens a form by its address the role it needs, and no form', async () => {
    const { page, errors } = await signedIn(viewerEmail());
    for (const [path, role] of [['/connections/new', 'connector builder or admin'], ['/workspaces', 'tenant administrator']] as const) {
      for (const viewport of [WIDE, PHONE]) {
        await page.setViewportSize(viewport);
        await page.goto(path);
        const notice = page.getByText(/you need the .* role/);
        await notice.waitFor();
        expect(await notice.textContent()).toContain(`you need the ${role} role`);
        expect(await page.getByRole('textbox').count()).toBe(0);
        expect(await page.getByRole('combobox').count()).toBe(0);
        expect(await page.getByRole('button', { name: /^Create/ }).count()).toBe(0);
        await expectNoSideScroll(page, `${path} as a viewer at ${viewport.width}`);
        await checkPage(page, `foundation-viewer-${path.replaceAll('/', '-')}-${viewport.width}`);
      }
    }
    expect(errors).toEqual([]);
  });

  it('names actors and targets in the audit logs, and filters by a known action and a date range', async () => {
    const { page, errors } = await signedIn(tenant.admin.email);
    await page.getByRole('link', { name: 'Workspace audit log' }).click();
    const created = page.getByRole('row').filter({ has: page.locator('td.audit-action', { hasText: /^Connection created$/ }) }).filter({ hasText: 'Okta (broken)' });
    await created.waitFor();
    expect(await created.locator('td.audit-actor').textContent()).toBe(tenant.admin.email);
    expect(await created.locator('td.audit-target').textContent()).toBe('Okta (broken) (connection)');
    expect(await page.locator('td.audit-actor, td.audit-target').filter({ hasText: /\b(usr|conn)_/ }).count()).toBe(0);

    const action = page.getByLabel('Action');
    expect(await action.evaluate((e) => e.tagName)).toBe('SELECT');
    await action.selectOption({ label: 'Connection run finished' });
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(async () => [...new Set(await page.locator('td.audit-action').allTextContents())]).toEqual(['Connection run finished']);

    // The date range, in the reader's days: tomorrow on has nothing yet; today has them.
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('From', { exact: true }).fill(day(1));
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('No events match the filter.').waitFor();
    await page.getByLabel('From', { exact: true }).fill(day(0));
    await page.getByLabel('To', { exact: true }).fill(day(0));
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.locator('td.audit-action').count()).toBeGreaterThan(0);
    await page.getByLabel('From', { exact: true }).fill(day(1));
    await page.getByLabel('To', { exact: true }).fill(day(0));
    await page.getByText('The end is before the start.').waitFor();
    await checkPage(page, 'foundation-audit-filter');

    await page.getByRole('link', { name: 'Identity audit log' }).click();
    // The log's first page is this test's sign-ins: the creations are found by the filter.
    await page.getByLabel('Action').selectOption({ label: 'User created' });
    await page.getByRole('button', { name: 'Filter' }).click();
    const userCreated = page.getByRole('row').filter({ has: page.locator('td.audit-action', { hasText: /^User created$/ }) }).filter({ hasText: viewerEmail() });
    await userCreated.waitFor();
    expect(await userCreated.locator('td.audit-actor').textContent()).toBe(tenant.admin.email);
    await page.getByLabel('From', { exact: true }).fill(day(1));
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('No events match the filter.').waitFor();

    // On a phone: the same names, the rows as cards, nothing sideways, axe clean.
    await page.setViewportSize({ ...PHONE });
    await page.goto('/audit');
    const createdOnPhone = page.getByRole('row').filter({ has: page.locator('td.audit-action', { hasText: /^Connection created$/ }) }).filter({ hasText: 'Okta (broken)' });
    await createdOnPhone.waitFor();
    expect(await createdOnPhone.locator('td.audit-actor').textContent()).toBe(tenant.admin.email);
    expect(await createdOnPhone.locator('td.audit-target').textContent()).toBe('Okta (broken) (connection)');
    await expectNoHorizontalScroll(page, 'audit log on a phone');
    await checkPage(page, 'foundation-audit-names-390');
    expect(errors).toEqual([]);
  });

  it('prefills no secret in the new-connection form, reports every missing field at once, shows hints as text and picks the time zone', async () => {
    const { page, errors } = await signedIn(tenant.admin.email);
    await page.getByRole('link', { name: 'New connection' }).click();
    await page.getByLabel('Integration').selectOption('int_okta_discovery');
    const secrets = page.locator('input[type="password"]');
    expect(await secrets.count()).toBeGreaterThan(0);
    for (const secret of await secrets.all()) expect(await secret.inputValue()).toBe('');
    expect(await page.getByLabel(/^Org URL/).inputValue()).toBe('');

    const hints = await page.locator('.field small').allTextContents();
    expect(hints.length).toBeGreaterThan(0);
    expect(hints.filter((h) => h.includes('`'))).toEqual([]);
    expect(await page.locator('.field small code').count()).toBeGreaterThan(0);

    const zone = page.getByLabel('Time zone');
    expect(await zone.evaluate((e) => e.tagName)).toBe('SELECT');
    await zone.selectOption('Europe/Paris');

    const connectionCount = async () => ((await http.request('GET', '/v1/connections', { token: adminToken })).body as { connections: unknown[] }).connections.length;
    const before = await connectionCount();
    await page.getByRole('button', { name: 'Create the connection' }).click();
    await page.getByText('fields need your attention').waitFor();
    expect(await page.locator('#configuration\\.org_url-error').textContent()).toBe('Org URL is required.');
    expect(await page.locator('#configuration\\.api_token-error').textContent()).toBe('API token is required.');
    expect(await page.getByLabel(/^Org URL/).getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel(/^API token/).getAttribute('aria-invalid')).toBe('true');
    await checkPage(page, 'foundation-new-connection-errors');
    expect(await connectionCount()).toBe(before); // nothing was sent

    await page.getByLabel(/^Org URL/).fill('https://tessera-test.okta.com');
    await page.getByLabel(/^API token/).fill(oktaToken);
    await page.getByRole('button', { name: 'Create the connection' }).click();
    await page.waitForURL(/\/connections\/conn_/);
    await page.getByText(/^Daily at 02:30 \(Europe\/Paris\)$/).waitFor();
    expect(errors).toEqual([]);
  });

  it('prefills neither a secret nor an example value in the AWS integration\'s form; its example secrets appear nowhere', async () => {
    const { page, errors } = await signedIn(tenant.admin.email);
    await page.getByRole('link', { name: 'New connection' }).click();
    await page.getByLabel('Integration').selectOption({ label: 'AWS IAM discovery' });
    await page.getByLabel(/^Secret access key/).waitFor();
    const example = awsExamples.configuration;
    // Both write-only fields are password inputs, empty, with no example even as a placeholder.
    const secrets = page.locator('input[type="password"]');
    expect(await secrets.count()).toBe(2);
    for (const secret of await secrets.all()) {
      expect(await secret.inputValue()).toBe('');
      expect(await secret.getAttribute('placeholder')).toBeNull();
    }
    expect(await page.getByLabel(/^Secret access key/).getAttribute('type')).toBe('password');
    expect(await page.getByLabel(/^External ID/).getAttribute('type')).toBe('password');
    // Every scope and configuration field is empty: the example's other values are placeholders only.
    const fields = page.locator(':is(input, textarea):is([id^="configuration."], [id^="scope."])');
    expect(await fields.count()).toBe(6);
    expect(await Promise.all((await fields.all()).map((f) => f.inputValue()))).toEqual(['', '', '', '', '', '']);
    expect(await page.getByLabel(/^Access key ID/).getAttribute('placeholder')).toBe(`For example: ${example.access_key_id}`);
    expect(await page.getByLabel(/^Account IDs/).getAttribute('placeholder')).toBe(`For example: ${awsExamples.scope.account_ids[0]}`);
    const html = await page.content();
    expect(html).not.toContain(example.secret_access_key);
    expect(html).not.toContain(example.external_id);
    for (const viewport of [WIDE, PHONE]) {
      await page.setViewportSize(viewport);
      await expectNoHorizontalScroll(page, `the AWS form at ${viewport.width}`);
      await checkPage(page, `foundation-new-connection-aws-${viewport.width}`);
    }
    expect(errors).toEqual([]);
  });
});
