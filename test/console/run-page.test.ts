/**
 * Runs you can watch (issue 28), in Chromium at 1280 × 800 and 390 × 844, no horizontal scroll
 * and axe clean wherever a page is checked:
 * - "Run now" says the run started and shows its progress on the connection page, with a link
 *   to the run's page; that page is named by connection, trigger and time (never the run id),
 *   shows the status, the duration and the progress growing while the run reads (the Okta fake
 *   is paused and lets a few requests through at a time), then the counts by kind and the
 *   changes grouped by kind and change, by name, filtered by kind, change and name; an added
 *   entity links to its page.
 * - A failed run: the connection page says its last run failed and why; the run's page lists
 *   each error with how to fix it.
 * - A run held by the mass-removal guard offers, after a real confirmation (Cancel starts
 *   nothing), a run accepting the removals, and the page moves to that run.
 * - On a phone: Run now and the progress growing; the connection page's delete confirmation
 *   (danger style, Cancel keeps it), a failed and a finished run's page, and 320 px.
 * - A second run that changed one Account (new last name, suspended) and removed one user: the
 *   changed Account by name with each attribute before → after, and the removed Principal,
 *   Account and link between them by name in their Removed groups, at both sizes.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { READABLE_TIME_FIELDS } from '../../console/src/components/readable-time';
import { checkPage, launchBrowser, openConsole, signInWithPassword, startConsoleHost, CONSOLE_SIZES, expectNoHorizontalScroll } from '../support/console-browser';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login, PASSWORD, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { buildOrg, oktaApp, oktaGroup, oktaToken, oktaUser, startFakeOkta, type FakeOkta } from '../../infra/local/stand-ins/okta';
import { listAll, runToEnd, type RunBody } from '../support/runs';
import type { TestHost } from '../support/test-host';
import { createConnection as createConnectionOver, oktaConnectionBody } from '../support/connections';

const clock = new MovableClock();
let okta: FakeOkta;
let host: TestHost;
let http: HttpClient;
let tenant: TestTenant;
let browser: Browser;
let adminToken: string;
const connections = { watched: '', broken: '', held: '' };

const eng = oktaGroup(1, 'eng');
const ops = oktaGroup(2, 'ops');
const jira = oktaApp(1, 'Jira');
/** An org of `count` users (or these users); eng holds the first five, ops the next three; Jira is eng's. */
function orgOf(count: number, users = Array.from({ length: count }, (_, i) => oktaUser(i + 1))) {
  return buildOrg({ users, groups: [eng, ops], members: { [eng.id]: users.slice(0, 5).map((u) => u.id), [ops.id]: users.slice(5, 8).map((u) => u.id) }, apps: [jira], appGroups: { [jira.id]: [eng.id] } });
}
const readable = (value: string) => new Intl.DateTimeFormat('en-US', { ...READABLE_TIME_FIELDS, timeZone: 'UTC' }).format(new Date(value));

const createConnection = (name: string, apiToken = oktaToken) => createConnectionOver(http, adminToken, oktaConnectionBody(name, apiToken, 'https://acme.okta.com'));

beforeAll(async () => {
  // Pages of 20 users, so a paused org lets a run through a page at a time.
  okta = await startFakeOkta({ org: orgOf(120), maxPage: 20 });
  host = await startConsoleHost({ clock, env: { TESSERA_CONNECTOR_ENDPOINTS: JSON.stringify({ okta: okta.url }), TESSERA_RUN_PROGRESS_SECONDS: '0' } });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  adminToken = (await login(http, clock, tenant.admin.email)).accessToken;
  connections.watched = await createConnection('Acme Okta');
  connections.broken = await createConnection('Broken Okta', '00WrongToken_0123456789abcdef0123456789');
  connections.held = await createConnection('Globex Okta');
  expect((await runToEnd(http, host, adminToken, connections.broken)).status).toBe('failed');
  // 120 users read, then the org shrinks to 20: the guard holds the next run (the watched connection's first run reads the 20).
  expect((await runToEnd(http, host, adminToken, connections.held)).status).toBe('succeeded');
  okta.state.org = orgOf(20);
  // A minute later: the runs list names each run by when it was queued, to the second.
  clock.advance(60);
  expect(await runToEnd(http, host, adminToken, connections.held)).toMatchObject({ status: 'partial', errors: [expect.objectContaining({ category: 'safety' })] });
  browser = await launchBrowser();
}, 180_000);
// A test that fails while the org is paused must not leave the next one waiting on it.
afterEach(() => okta?.resume());
afterAll(async () => {
  await browser?.close();
  await host?.close();
  await okta?.close();
});

const SIZES = CONSOLE_SIZES;


/** The value beside a term of the page's details list. */
const detail = (page: Page, term: string) => page.locator(`dl.details dt:text-is("${term}") + dd`).first();
const itemsOf = (list: Locator) => list.getByRole('listitem').allTextContents();
const runsOf = (id: string) => listAll<RunBody & { queued_at: string; trigger: string }>(http, adminToken, `/v1/connections/${id}/runs`, 'runs');

async function openConnection(page: Page, name: string, size: (typeof SIZES)[number]): Promise<void> {
  await page.setViewportSize({ width: size.width, height: size.height });
  await signInWithPassword(page, tenant.admin.email, PASSWORD);
  await page.waitForURL('**/connections');
  await page.getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

describe('a run you can watch', () => {
  it('Run now shows the run starting, and its page its progress, then its counts and its changes grouped and named', async () => {
    const { page, errors } = await openConsole(browser, host.url);
    await openConnection(page, 'Acme Okta', SIZES[0]);
    okta.pause();
    await page.getByRole('button', { name: 'Run now' }).click();
    // Feedback on the spot: the run started, what it has done so far, and a link to watch it.
    await page.getByText(/^Run started \((queued|running)\)\. Reading the provider: \d+ pages?/).waitFor();
    await page.getByRole('link', { name: 'Watch the run' }).click();
    await page.waitForURL(/\/connections\/conn_[^/]+\/runs\/run_/);
    const [run] = await runsOf(connections.watched);
    expect(page.url()).toContain(`/runs/${run!.run_id}`);
    // Named by connection, trigger and time, never by the run id.
    await page.getByRole('heading', { level: 1, name: `Acme Okta: Manual run, ${readable(run!.queued_at)}` }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).not.toContain(run!.run_id);

    // While it runs: the status, the duration so far, and the progress growing as the provider answers.
    await expect.poll(() => page.locator('#run-status').textContent()).toBe('running');
    await page.getByRole('heading', { level: 2, name: 'Progress' }).waitFor();
    expect(await detail(page, 'Duration').textContent()).toMatch(/ so far$/);
    expect(await detail(page, 'Pages read').textContent()).toBe('0');
    okta.allow(3);
    await expect.poll(() => detail(page, 'Pages read').textContent()).toBe('3');
    expect(Number(await detail(page, 'Items written').textContent())).toBeGreaterThan(0);
    const tracks = page.getByRole('table', { name: 'What it reads' });
    expect(await tracks.locator('tbody th').allTextContents()).toEqual(['apps', 'groups', 'users']);
    expect(await tracks.locator('tbody td:nth-child(2)').allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/^(reading|done)$/)]));
    await checkPage(page, 'run-running-wide');

    // Finished: the status, the counts by kind, how it went.
    okta.resume();
    await expect.poll(() => page.locator('#run-status').textContent(), { timeout: 120_000 }).toBe('succeeded');
    await page.getByRole('heading', { level: 2, name: 'How it went' }).waitFor();
    expect(await detail(page, 'Duration').textContent()).toMatch(/^\d+ (s|min \d+ s)$/);
    const counts = page.getByRole('table', { name: 'Count by kind' });
    expect(await counts.getByRole('row', { name: 'Account Entities 20' }).count()).toBe(1);
    expect(await counts.getByRole('row', { name: 'Entitlement Entities 2' }).count()).toBe(1);
    expect(await counts.getByRole('row', { name: 'account_assigned_entitlement Relationships 8' }).count()).toBe(1);

    // The changes, grouped by kind and then by change, by name; relationships as from → to.
    const changes = page.getByRole('region', { name: 'Changes' });
    const entitlements = changes.getByRole('region', { name: 'Entitlement', exact: true });
    await entitlements.waitFor();
    expect(await itemsOf(entitlements.getByRole('list', { name: 'Added (2)' }))).toEqual(['eng', 'ops']);
    const grants = changes.getByRole('region', { name: 'entitlement_grants_resource' });
    expect(await itemsOf(grants.getByRole('list', { name: 'Added (1)' }))).toEqual(['eng → Jira']);
    // Filters: a kind, a change, a name.
    await changes.getByLabel('Kind').selectOption('Resource');
    expect(await changes.getByRole('heading', { level: 3 }).allTextContents()).toEqual(['Resource']);
    expect(await itemsOf(changes.getByRole('list', { name: 'Added (1)' }))).toEqual(['Jira']);
    await changes.getByLabel('Change').selectOption({ label: 'Removed' });
    await changes.getByText('No change matches these filters.').waitFor();
    await changes.getByLabel('Kind').selectOption('');
    await changes.getByLabel('Change').selectOption('');
    await changes.getByLabel('Name contains').fill('ops');
    expect(await changes.getByRole('heading', { level: 3 }).allTextContents()).toEqual(['Entitlement', 'account_assigned_entitlement']);
    await expectNoHorizontalScroll(page, 'run page');
    await checkPage(page, 'run-finished-wide');

    // An added entity links to its page.
    await changes.getByLabel('Name contains').fill('');
    await changes.getByRole('link', { name: 'Jira' }).click();
    await page.getByRole('heading', { level: 1, name: 'Jira (Resource)' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('a failed run says why, and how to fix it', async () => {
    const { page, errors } = await openConsole(browser, host.url);
    await openConnection(page, 'Broken Okta', SIZES[0]);
    const [failed] = await runsOf(connections.broken);
    expect(failed!.errors.length).toBeGreaterThan(0);
    // The connection's page says its last run failed, and why, whatever its health says.
    const lastRun = detail(page, 'Last run');
    await expect.poll(() => lastRun.locator('.badge').textContent()).toBe('failed');
    expect(await lastRun.textContent()).toContain(failed!.errors[0]!.message);
    await page.getByRole('table', { name: 'Runs of this connection' }).getByRole('link', { name: readable(failed!.queued_at) }).click();
    await expect.poll(() => page.locator('#run-status').textContent()).toBe('failed');
    const why = page.getByRole('region', { name: 'Why it failed' });
    expect(await why.getByRole('listitem').allTextContents()).toEqual(failed!.errors.map((e) => `${e.category}: ${e.message}How to fix it: ${e.action}`));
    await expectNoHorizontalScroll(page, 'failed run');
    await checkPage(page, 'run-failed-wide');
    expect(errors).toEqual([]);
  });

  it('a run held by the guard offers a run accepting the removals, after a confirmation, and moves to that run', async () => {
    const { page, errors } = await openConsole(browser, host.url);
    await openConnection(page, 'Globex Okta', SIZES[0]);
    const [held] = await runsOf(connections.held);
    await page.getByRole('table', { name: 'Runs of this connection' }).getByRole('link', { name: readable(held!.queued_at) }).click();
    await expect.poll(() => page.locator('#run-status').textContent()).toBe('partial');
    const errorsRegion = page.getByRole('region', { name: 'What it could not do' });
    expect(await errorsRegion.getByRole('listitem').first().textContent()).toContain(held!.errors[0]!.message);
    const accept = page.getByRole('button', { name: 'Run again and accept the removals' });
    const dialog = page.getByRole('dialog', { name: 'Accept the removals?' });
    // Cancel starts nothing.
    await accept.click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await host.runQueue.idle();
    expect(await runsOf(connections.held)).toHaveLength(2);
    // Confirmed: the page is the new run's, which accepts the removals and succeeds.
    await accept.click();
    await dialog.getByRole('button', { name: 'Run and delete them' }).click();
    await expect.poll(async () => (await runsOf(connections.held)).length).toBe(3);
    const [confirmed] = await runsOf(connections.held);
    await page.waitForURL(`**/runs/${confirmed!.run_id}`);
    await expect.poll(() => page.locator('#run-status').textContent(), { timeout: 120_000 }).toBe('succeeded');
    expect(await detail(page, 'Trigger').textContent()).toBe('Manual run, accepting removals');
    expect(await page.getByRole('button', { name: 'Run again and accept the removals' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});

describe('on a phone (390 × 844)', () => {
  it('Run now shows the run starting, and its page the progress growing, without horizontal scroll and accessible', async () => {
    const id = await createConnection('Initech Okta');
    const { page, errors } = await openConsole(browser, host.url);
    await openConnection(page, 'Initech Okta', SIZES[1]);
    okta.pause();
    await page.getByRole('button', { name: 'Run now' }).click();
    await page.getByText(/^Run started \((queued|running)\)\. Reading the provider: \d+ pages?/).waitFor();
    await expectNoHorizontalScroll(page, 'connection page, run started');
    await checkPage(page, 'run-started-phone');
    await page.getByRole('link', { name: 'Watch the run' }).click();
    const [run] = await runsOf(id);
    await page.waitForURL(`**/connections/${id}/runs/${run!.run_id}`);
    await page.getByRole('heading', { level: 1, name: `Initech Okta: Manual run, ${readable(run!.queued_at)}` }).waitFor();
    await expect.poll(() => page.locator('#run-status').textContent()).toBe('running');
    await page.getByRole('heading', { level: 2, name: 'Progress' }).waitFor();
    expect(await detail(page, 'Pages read').textContent()).toBe('0');
    await expectNoHorizontalScroll(page, 'run page, waiting for the provider');
    await checkPage(page, 'run-running-phone');
    // The provider answers two pages: the count grows on the page, the tracks' table still fits.
    okta.allow(2);
    await expect.poll(() => detail(page, 'Pages read').textContent()).toBe('2');
    expect(Number(await detail(page, 'Items written').textContent())).toBeGreaterThan(0);
    expect(await page.getByRole('table', { name: 'What it reads' }).isVisible()).toBe(true);
    await expectNoHorizontalScroll(page, 'run page, reading');
    await checkPage(page, 'run-reading-phone');
    okta.resume();
    await expect.poll(() => page.locator('#run-status').textContent(), { timeout: 120_000 }).toBe('succeeded');
    expect(errors).toEqual([]);
  });

  it('the run pages reflow without horizontal scroll and stay accessible', async () => {
    const { page, errors } = await openConsole(browser, host.url);
    await openConnection(page, 'Broken Okta', SIZES[1]);
    await expectNoHorizontalScroll(page, 'connection page');
    // A confirmation on a phone fits, is accessible, and Cancel keeps the connection. The
    // destructive button has the danger style, not the main actions' colour.
    const remove = page.getByRole('button', { name: 'Delete the connection' });
    expect(await remove.getAttribute('class')).toContain('danger');
    const background = (button: Locator) => button.evaluate((b) => getComputedStyle(b).backgroundColor);
    expect(await background(remove)).not.toBe(await background(page.getByRole('button', { name: 'Run now' })));
    await remove.click();
    const dialog = page.getByRole('dialog', { name: 'Delete the connection Broken Okta?' });
    await dialog.waitFor();
    await expectNoHorizontalScroll(page, 'delete dialog');
    await checkPage(page, 'confirm-delete-phone');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await http.request('GET', `/v1/connections/${connections.broken}`, { token: adminToken })).status).toBe(200);
    const [failed] = await runsOf(connections.broken);
    await page.getByRole('table', { name: 'Runs of this connection' }).getByRole('link', { name: readable(failed!.queued_at) }).click();
    await page.getByRole('region', { name: 'Why it failed' }).waitFor();
    await expectNoHorizontalScroll(page, 'failed run');
    await checkPage(page, 'run-failed-phone');
    // The watched connection's run, or one made here when this test runs alone.
    const watched = (await runsOf(connections.watched))[0] ?? (await runToEnd(http, host, adminToken, connections.watched));
    await page.goto(`/connections/${connections.watched}/runs/${watched.run_id}`);
    await page.getByRole('region', { name: 'Changes' }).getByRole('heading', { level: 3, name: 'Account', exact: true }).waitFor();
    await expectNoHorizontalScroll(page, 'run page');
    await checkPage(page, 'run-finished-phone');
    // And at 320 px, the narrowest width WCAG 1.4.10 asks to reflow.
    await page.setViewportSize({ width: 320, height: 640 });
    await expectNoHorizontalScroll(page, 'run page at 320 px');
    expect(errors).toEqual([]);
  });
});

describe('a run that changed and removed entities', () => {
  let changed: RunBody;
  beforeAll(async () => {
    // Two runs of one connection: between them user 3 gets a new last name and is suspended,
    // and user 20 leaves (an Account, its Principal and the link between them are removed).
    const id = await createConnection('Umbrella Okta');
    expect((await runToEnd(http, host, adminToken, id)).status).toBe('succeeded');
    okta.state.org = orgOf(19, Array.from({ length: 19 }, (_, i) => (i === 2 ? oktaUser(3, { lastName: 'Builder', status: 'SUSPENDED' }) : oktaUser(i + 1))));
    try {
      changed = await runToEnd(http, host, adminToken, id);
    } finally {
      okta.state.org = orgOf(20);
    }
    expect(changed).toMatchObject({ status: 'succeeded', changes: { entities_changed: 1, entities_removed: 2, relationships_removed: 1 } });
  }, 120_000);

  for (const size of SIZES) {
    it(`shows what changed in a changed entity and the removed ones by name (${size.name})`, async () => {
      const { page, errors } = await openConsole(browser, host.url);
      await openConnection(page, 'Umbrella Okta', size);
      await page.goto(`/connections/${changed.connection_id}/runs/${changed.run_id}`);
      const changes = page.getByRole('region', { name: 'Changes' });
      const accounts = changes.getByRole('region', { name: 'Account', exact: true });
      await accounts.waitFor();
      // The changed Account by name, linked to its page, with each attribute before → after.
      const changedAccounts = accounts.getByRole('list', { name: 'Changed (1)' });
      await changedAccounts.getByRole('link', { name: 'user3@example.test' }).waitFor();
      expect(await itemsOf(changes.getByRole('list', { name: 'What changed in user3@example.test' }))).toEqual(['last_name: 3 → Builder', 'status: ACTIVE → SUSPENDED']);
      // The removed ones by name, in their own group, each kind apart.
      expect(await itemsOf(accounts.getByRole('list', { name: 'Removed (1)' }))).toEqual(['user20@example.test']);
      const principals = changes.getByRole('region', { name: 'Principal', exact: true });
      expect(await itemsOf(principals.getByRole('list', { name: 'Removed (1)' }))).toEqual(['user20@example.test']);
      const links = changes.getByRole('region', { name: 'principal_represents_account' });
      expect(await itemsOf(links.getByRole('list', { name: 'Removed (1)' }))).toEqual(['user20@example.test → user20@example.test']);
      // Nothing else: Principals, Accounts, then the relationship, as the kinds come.
      expect(await changes.getByRole('heading', { level: 3 }).allTextContents()).toEqual(['Principal', 'Account', 'principal_represents_account']);
      expect(await changes.getByRole('heading', { level: 4 }).allTextContents()).toEqual(['Removed (1)', 'Changed (1)', 'Removed (1)', 'Removed (1)']);
      await expectNoHorizontalScroll(page, `run with changes and removals (${size.name})`);
      await checkPage(page, `run-changed-removed-${size.name}`);
      // The change filter keeps what changed, and then only the removals.
      await changes.getByLabel('Change', { exact: true }).selectOption({ label: 'Changed' });
      expect(await changes.getByRole('heading', { level: 3 }).allTextContents()).toEqual(['Account']);
      await changes.getByLabel('Change', { exact: true }).selectOption({ label: 'Removed' });
      expect(await changes.getByRole('heading', { level: 3 }).allTextContents()).toEqual(['Principal', 'Account', 'principal_represents_account']);
      expect(await changes.getByRole('heading', { level: 4 }).allTextContents()).toEqual(['Removed (1)', 'Removed (1)', 'Removed (1)']);
      expect(errors).toEqual([]);
    });
  }
});
