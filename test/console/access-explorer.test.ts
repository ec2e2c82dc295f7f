/**
 * The access explorer in the console (issue 28), on the access graph of an Okta org and an AWS
 * account whose people overlap, read by visible text and roles at 1280 × 800 and 390 × 844 (no
 * horizontal scroll, axe clean at both):
 * - People and a person: the People page with its search; a person's accounts in every
 *   connection (by the connection's name) and what they reach, each path hop by hop, filtered
 *   by connection and kind.
 * - The access history as a timeline (gained / lost, who, what, via what, in which connection),
 *   filtered by person, connection and dates.
 * - An entity: its attributes, its neighbours by name and who can reach it, each path hop by
 *   hop; a hop leads on to the group's page, which names its members.
 * - CSV exports: the People page (one row per person) and the access history (what its filters
 *   show, one row per change), file name and rows checked.
 * - A viewer reads people and the access history too.
 */
import { readFile } from 'node:fs/promises';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, launchBrowser, openConsole, signInWithPassword, startConsoleHost, CONSOLE_SIZES, expectNoHorizontalScroll } from '../support/console-browser';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, createUser, login, PASSWORD, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { AWS_ACCOUNT, AWS_SECOND_ACCOUNT, awsRole, awsUser, sampleAccounts, startFakeAws, type FakeAws } from '../../infra/local/stand-ins/aws';
import { oktaToken, startFakeOkta, type FakeOkta } from '../../infra/local/stand-ins/okta';
import { acme, acmeOrg, createConnection as createConnectionOver } from '../support/connections';
import { runToEnd, type RunBody } from '../support/runs';
import { parseCsv } from '../support/csv';
import type { TestHost } from '../support/test-host';

const clock = new MovableClock();
let okta: FakeOkta;
let aws: FakeAws;
let host: TestHost;
let http: HttpClient;
let tenant: TestTenant;
let browser: Browser;
let secondOktaRun: RunBody;

const { alice, bob, carol, payrollUsers, admins } = acme;

const createConnection = (token: string, body: Record<string, unknown>) => createConnectionOver(http, token, body);

beforeAll(async () => {
  okta = await startFakeOkta({ org: acmeOrg({ [payrollUsers.id]: [alice.id, bob.id], [admins.id]: [alice.id] }) });
  aws = await startFakeAws();
  aws.state.accounts = sampleAccounts();
  host = await startConsoleHost({ clock, env: { TESSERA_CONNECTOR_ENDPOINTS: JSON.stringify({ okta: okta.url, sts: aws.url, iam: aws.url }) } });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  const admin = (await login(http, clock, tenant.admin.email)).accessToken;
  await createUser(http, admin, { email: `viewer@${tenant.domain}`, role: 'viewer' });
  const oktaConnection = await createConnection(admin, { integration_id: 'int_okta_discovery', name: 'Okta', scope: {}, configuration: { org_url: 'https://acme.okta.com', api_token: oktaToken } });
  const awsConnection = await createConnection(admin, {
    integration_id: 'int_aws_iam_discovery',
    name: 'AWS',
    scope: { account_ids: [AWS_ACCOUNT, AWS_SECOND_ACCOUNT] },
    configuration: { access_key_id: awsUser.accessKeyId, secret_access_key: awsUser.secretAccessKey, region: 'eu-west-1', role_arn: awsRole.arn, external_id: awsRole.externalId! },
  });
  expect((await runToEnd(http, host, admin, oktaConnection)).status).toBe('succeeded');
  expect((await runToEnd(http, host, admin, awsConnection)).status).toBe('succeeded');
  // The second Okta run: bob leaves Payroll users, carol joins Admins.
  okta.state.org = acmeOrg({ [payrollUsers.id]: [alice.id], [admins.id]: [alice.id, carol.id] });
  clock.advance(60);
  secondOktaRun = await runToEnd(http, host, admin, oktaConnection);
  expect(secondOktaRun.status).toBe('succeeded');
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await host?.close();
  await okta?.close();
  await aws?.close();
});

const SIZES = CONSOLE_SIZES;


/** Each body row's cells (header cell first), as text. */
async function rowTexts(table: Locator): Promise<string[][]> {
  const rows = await table.locator('tbody tr').all();
  return Promise.all(rows.map(async (row) => (await row.locator('th, td').allTextContents()).map((text) => text.trim())));
}
const hopsOf = (list: Locator) => list.getByRole('listitem').allTextContents();
const targetsOf = async (table: Locator) => (await table.locator('tbody tr th').allTextContents()).sort();
const timeline = (page: Page) => page.locator('ol.timeline > li');
/** A timeline entry without its time: "carol@example.com gained Admin Console (Resource) via Admins (Entitlement) in Okta". */
const entries = async (page: Page) => (await timeline(page).allTextContents()).map((text) => text.replace(/^.*?: /, '').replace(/\s+/g, ' ').trim()).sort();

async function signIn(page: Page, email: string, size: (typeof SIZES)[number]): Promise<void> {
  await page.setViewportSize({ width: size.width, height: size.height });
  await signInWithPassword(page, email, PASSWORD);
  await page.waitForURL('**/connections');
}

/** A main navigation link; on a phone the navigation may sit behind a menu button. */
async function follow(page: Page, name: string): Promise<void> {
  // On a phone the navigation is folded behind the Menu button (hidden, so not yet a role to find).
  await page.locator('header.site-header').waitFor();
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
}

describe.each(SIZES)('the access explorer at $width × $height', (size) => {
  it('finds people, shows a person\'s accounts by connection and what they reach hop by hop, with filters', async () => {
    const { page, errors } = await openConsole(browser, host.url);
    await signIn(page, tenant.admin.email, size);
    await follow(page, 'People');
    await page.waitForURL('**/people');
    await page.getByRole('heading', { level: 1, name: 'People' }).waitFor();
    const people = page.getByRole('table', { name: 'People' });
    await people.waitFor();
    // One person per email across both connections, the connections by name.
    const all = await rowTexts(people);
    expect(all.find((row) => row[0] === 'alice@example.com')).toEqual(['alice@example.com', 'alice@example.com', '3', expect.stringMatching(/^(Okta, AWS|AWS, Okta)$/)]);
    expect(all.find((row) => row[0] === 'bob@example.com')).toEqual(['bob@example.com', 'bob@example.com', '1', 'Okta']);
    expect(all.map((row) => row[0])).toEqual(['alice@example.com', 'bob', 'bob@example.com', 'carol@example.com', 'ci-deployer', 'tessera-discovery']);
    await expectNoHorizontalScroll(page, 'people');
    await checkPage(page, `people-${size.name}`);

    // Search: the start of a name or email.
    await page.getByRole('searchbox', { name: 'Name or email' }).fill('BOB');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL('**/people?q=BOB');
    const found = page.getByRole('table', { name: 'People matching BOB' });
    await expect.poll(async () => (await rowTexts(found)).map((row) => row[0])).toEqual(['bob', 'bob@example.com']);
    await page.getByRole('searchbox', { name: 'Name or email' }).fill('zz');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('No one whose name or email starts with “zz”.').waitFor();

    // A person: each account with its connection's name.
    await page.getByRole('searchbox', { name: 'Name or email' }).fill('ali');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('table', { name: 'People matching ali' }).getByRole('link', { name: 'alice@example.com' }).click();
    await page.getByRole('heading', { level: 1, name: 'alice@example.com' }).waitFor();
    const accounts = page.getByRole('table', { name: 'Accounts of alice@example.com' });
    await expect.poll(async () => (await rowTexts(accounts)).map((row) => `${row[0]} in ${row[1]}`).sort()).toEqual(['alice (Account) in AWS', 'alice.ops (Account) in AWS', 'alice@acme.test (Account) in Okta']);

    // What she reaches, each path hop by hop, by name.
    const access = page.getByRole('table', { name: 'What alice@example.com can reach, and how' });
    await access.waitFor();
    // On a phone the row header's name starts with its stacked label ("Reaches").
    const payrollRow = access.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /Payroll \(Resource\)$/ }) });
    expect(await hopsOf(payrollRow.getByRole('list', { name: 'Path 1 of 1 to Payroll' }))).toEqual(['alice@acme.test (Account)', 'Payroll users (Entitlement)', 'Payroll (Resource)']);
    expect(await payrollRow.getByRole('cell').first().textContent()).toBe('Okta');
    // AdministratorAccess through both of her AWS users: two paths.
    const administrator = access.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /AdministratorAccess/ }) });
    expect(await administrator.getByRole('list', { name: /^Path \d of 2 to AdministratorAccess/ }).count()).toBe(2);
    await expectNoHorizontalScroll(page, 'person');
    await checkPage(page, `person-${size.name}`);

    // Filters: one connection, then resources only.
    await page.getByLabel('Connection').selectOption({ label: 'Okta' });
    await expect.poll(() => targetsOf(access)).toEqual(['Admin Console (Resource)', 'Admins (Entitlement)', 'Payroll (Resource)', 'Payroll users (Entitlement)']);
    await page.getByLabel('Kind').selectOption({ label: 'Resources' });
    await expect.poll(() => targetsOf(access)).toEqual(['Admin Console (Resource)', 'Payroll (Resource)']);
    await page.getByLabel('Connection').selectOption({ label: 'AWS' });
    await expect.poll(async () => [...new Set(await access.locator('tbody tr td:nth-child(2)').allTextContents())]).toEqual(['AWS']);
    const awsResources = await targetsOf(access);
    expect(awsResources.filter((name) => !name.endsWith('(Resource)'))).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('shows the access history as a timeline, filtered by person, connection and dates', async () => {
    const { page, errors } = await openConsole(browser, host.url);
    await signIn(page, tenant.admin.email, size);
    await follow(page, 'Access history');
    await page.getByRole('heading', { level: 1, name: 'Access history' }).waitFor();
    await expect.poll(() => entries(page)).toEqual([
      'bob@example.com lost Payroll (Resource) via Payroll users (Entitlement) in Okta',
      'bob@example.com lost Payroll users (Entitlement) via bob@acme.test (Account) in Okta',
      'carol@example.com gained Admin Console (Resource) via Admins (Entitlement) in Okta',
      'carol@example.com gained Admins (Entitlement) via carol@acme.test (Account) in Okta',
    ]);
    // One day heading, the exact time in each entry's <time>.
    const day = new Intl.DateTimeFormat('en-US', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(new Date(secondOktaRun.finished_at!));
    await page.getByRole('heading', { level: 2, name: day }).waitFor();
    expect(await timeline(page).first().locator('time').getAttribute('datetime')).toBe(secondOktaRun.finished_at);
    await expectNoHorizontalScroll(page, 'access history');
    await checkPage(page, `access-history-${size.name}`);

    // By person: the address keeps the filter.
    const filters = page.getByRole('form', { name: 'Filter the access history' });
    await filters.getByLabel('Person').selectOption({ label: 'carol@example.com' });
    await filters.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/person_id=per_/);
    await expect.poll(() => entries(page)).toEqual([
      'carol@example.com gained Admin Console (Resource) via Admins (Entitlement) in Okta',
      'carol@example.com gained Admins (Entitlement) via carol@acme.test (Account) in Okta',
    ]);
    // By connection: AWS recorded none (its first run is its baseline).
    await filters.getByLabel('Connection').selectOption({ label: 'AWS' });
    await filters.getByRole('button', { name: 'Show' }).click();
    await page.getByText(/^No access changes with these filters/).waitFor();
    expect(await timeline(page).count()).toBe(0);

    // By dates: up to the day before finds nothing, from that day finds all four.
    await page.getByRole('link', { name: 'Clear the filters' }).click();
    await expect.poll(() => timeline(page).count()).toBe(4);
    const runDay = secondOktaRun.finished_at!.slice(0, 10);
    const dayBefore = new Date(Date.parse(`${runDay}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    await filters.getByLabel('To').fill(dayBefore);
    await filters.getByRole('button', { name: 'Show' }).click();
    await page.getByText(/^No access changes with these filters/).waitFor();
    await filters.getByLabel('To').fill('');
    await filters.getByLabel('From').fill(runDay);
    await filters.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(`**/access-history?since=${runDay}`);
    await expect.poll(() => timeline(page).count()).toBe(4);

    // From an entry to the person's page.
    await timeline(page).filter({ hasText: 'carol@example.com gained Admins' }).getByRole('link', { name: 'carol@example.com' }).click();
    await page.getByRole('heading', { level: 1, name: 'carol@example.com' }).waitFor();
    await page.getByRole('link', { name: 'Access history of carol@example.com' }).click();
    await expect.poll(() => timeline(page).count()).toBe(2);
    expect(errors).toEqual([]);
  });
});

describe('an entity', () => {
  it('shows its attributes, its neighbours by name and who can reach it, each path hop by hop', async () => {
    const { page, errors } = await openConsole(browser, host.url);
    await signIn(page, tenant.admin.email, SIZES[0]);
    await follow(page, 'People');
    await page.getByRole('table', { name: 'People' }).getByRole('link', { name: 'alice@example.com' }).click();
    const access = page.getByRole('table', { name: 'What alice@example.com can reach, and how' });
    await access.getByRole('rowheader', { name: 'Payroll (Resource)', exact: true }).getByRole('link', { name: 'Payroll' }).click();
    await page.getByRole('heading', { level: 1, name: 'Payroll (Resource)' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Attributes' }).waitFor();
    // Its neighbour, by name: the group assigned to the app.
    await page.getByRole('heading', { level: 2, name: 'Pointed to by (1)' }).waitFor();
    expect(await rowTexts(page.getByRole('table', { name: 'Pointed to by' }))).toEqual([['Payroll users (Entitlement)', 'entitlement_grants_resource']]);
    // Who reaches it since the second run: alice only (bob left Payroll users).
    const holders = page.getByRole('table', { name: 'People who can reach Payroll, and how' });
    await expect.poll(async () => (await rowTexts(holders)).map((row) => `${row[0]} / ${row[1]}`)).toEqual(['alice@example.com / alice@acme.test (Account)']);
    expect(await hopsOf(holders.getByRole('list', { name: 'Path 1 of 1 to Payroll' }))).toEqual(['alice@acme.test (Account)', 'Payroll users (Entitlement)', 'Payroll (Resource)']);
    await expectNoHorizontalScroll(page, 'entity');
    await checkPage(page, 'entity-wide');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoHorizontalScroll(page, 'entity on a phone');
    await checkPage(page, 'entity-phone');
    await page.setViewportSize({ width: 320, height: 640 });
    await expectNoHorizontalScroll(page, 'entity at 320 px');
    // A hop leads on: the group's page names its members.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('table', { name: 'Pointed to by' }).getByRole('link', { name: 'Payroll users' }).click();
    await page.getByRole('heading', { level: 1, name: 'Payroll users (Entitlement)' }).waitFor();
    await expect.poll(async () => (await rowTexts(page.getByRole('table', { name: 'Pointed to by' }))).map((row) => row[0])).toEqual(['alice@acme.test (Account)']);
    expect(errors).toEqual([]);
  });
});

describe('CSV exports', () => {
  it('the People page exports the people as a CSV file, one row per person', async () => {
    const { page, errors } = await openConsole(browser, host.url);
    await signIn(page, tenant.admin.email, SIZES[0]);
    await follow(page, 'People');
    await page.getByRole('table', { name: 'People' }).waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export people (CSV)' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('people.csv');
    const text = await readFile(await file.path(), 'utf8');
    const lines = text.trim().split(/\r?\n/);
    expect(lines).toHaveLength(1 + 6);
    expect(lines.slice(1).some((line) => line.includes('alice@example.com'))).toBe(true);
    await page.getByText('Exported 6 rows to people.csv.').waitFor();
    expect(errors).toEqual([]);
  });

  it('the access history exports what its filters show, as a CSV file of one row per change', async () => {
    const { page, errors } = await openConsole(browser, host.url);
    await signIn(page, tenant.admin.email, SIZES[0]);
    await follow(page, 'Access history');
    await expect.poll(() => timeline(page).count()).toBe(4);
    const exportFile = async () => {
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export the access history (CSV)' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe('access-history.csv');
      const [header, ...rows] = parseCsv(await readFile(await file.path(), 'utf8'));
      const person = header!.indexOf('person.display_name');
      expect(person, `columns: ${header!.join(', ')}`).toBeGreaterThanOrEqual(0);
      return rows.map((row) => row[person]).sort();
    };
    expect(await exportFile()).toEqual(['bob@example.com', 'bob@example.com', 'carol@example.com', 'carol@example.com']);
    await page.getByText('Exported 4 rows to access-history.csv.').waitFor();

    // Filtered to one person: the file holds that person's changes only, as the page does.
    const filters = page.getByRole('form', { name: 'Filter the access history' });
    await filters.getByLabel('Person').selectOption({ label: 'carol@example.com' });
    await filters.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => timeline(page).count()).toBe(2);
    expect(await exportFile()).toEqual(['carol@example.com', 'carol@example.com']);
    await page.getByText('Exported 2 rows to access-history.csv.').waitFor();
    expect(errors).toEqual([]);
  });
});

describe('a viewer', () => {
  it('reads people and the access history too', async () => {
    const { page, errors } = await openConsole(browser, host.url);
    await signIn(page, `viewer@${tenant.domain}`, SIZES[0]);
    await follow(page, 'People');
    await page.getByRole('table', { name: 'People' }).getByRole('link', { name: 'carol@example.com' }).click();
    await page.getByRole('heading', { level: 1, name: 'carol@example.com' }).waitFor();
    await expect.poll(async () => targetsOf(page.getByRole('table', { name: 'What carol@example.com can reach, and how' }))).toContain('Admin Console (Resource)');
    await follow(page, 'Access history');
    await expect.poll(() => timeline(page).count()).toBe(4);
    expect(errors).toEqual([]);
  });
});
