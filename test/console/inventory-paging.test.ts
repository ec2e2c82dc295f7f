/**
 * A connection's inventory, page by page (issue 28), in Chromium at 1280 × 800 and 390 × 844:
 * - Entities: the first page of 25 (the console's page size; the API takes 1..100), a status
 *   saying how many are shown and that there are more; "Show more entities", pressed with the
 *   keyboard, adds the API's second page below the first (the first page's rows kept, in the
 *   API's order: by kind, then by name), and focus goes to the first added row's link; pressed again, the last page
 *   comes, the button goes and the status says all are shown.
 * - Relationships: "Show more relationships" adds the second page below the first.
 * No horizontal scroll, axe clean, at both sizes.
 *
 * The org has 30 users: 63 entities (3 pages) and 39 relationships (2 pages), so every page
 * the test asks for holds rows.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_SIZES, checkPage, expectNoHorizontalScroll, launchBrowser, openConsole, signInWithPassword, startConsoleHost } from '../support/console-browser';
import { api, type HttpClient } from '../support/http-client';
import { createTestTenant, login, PASSWORD, type TestTenant } from '../support/identity-fixtures';
import { MovableClock } from '../support/movable-clock';
import { buildOrg, oktaApp, oktaGroup, oktaToken, oktaUser, startFakeOkta, type FakeOkta } from '../../infra/local/stand-ins/okta';
import { listAll, runToEnd, type EntityBody, type RelationshipBody } from '../support/runs';
import type { TestHost } from '../support/test-host';
import { createConnection, oktaConnectionBody } from '../support/connections';

const PAGE = 25;
const clock = new MovableClock();
let okta: FakeOkta;
let host: TestHost;
let http: HttpClient;
let tenant: TestTenant;
let browser: Browser;
let connectionId: string;
let entities: EntityBody[];
let relationships: RelationshipBody[];

beforeAll(async () => {
  const users = Array.from({ length: 30 }, (_, i) => oktaUser(i + 1));
  const [eng, ops] = [oktaGroup(1, 'eng'), oktaGroup(2, 'ops')];
  const jira = oktaApp(1, 'Jira');
  const org = buildOrg({ users, groups: [eng, ops], members: { [eng.id]: users.slice(0, 5).map((u) => u.id), [ops.id]: users.slice(5, 8).map((u) => u.id) }, apps: [jira], appGroups: { [jira.id]: [eng.id] } });
  okta = await startFakeOkta({ org });
  host = await startConsoleHost({ clock, env: { TESSERA_CONNECTOR_ENDPOINTS: JSON.stringify({ okta: okta.url }) } });
  http = api(host.url);
  tenant = await createTestTenant(host.deps, { mfaMode: 'OFF' });
  const token = (await login(http, clock, tenant.admin.email)).accessToken;
  connectionId = await createConnection(http, token, oktaConnectionBody('Acme Okta', oktaToken, 'https://acme.okta.com'));
  expect((await runToEnd(http, host, token, connectionId)).status).toBe('succeeded');
  // The API's order, read in pages of the console's size.
  entities = await listAll<EntityBody>(http, token, `/v1/connections/${connectionId}/entities`, 'entities', PAGE);
  relationships = await listAll<RelationshipBody>(http, token, `/v1/connections/${connectionId}/relationships`, 'relationships', PAGE);
  expect([entities.length, relationships.length]).toEqual([63, 39]);
  // That order is by kind, then by name: the Principals (named by email) come first, sorted, so the first page the console shows is in name order.
  expect(entities.slice(0, users.length).map((e) => `${e.kind} ${e.display_name}`)).toEqual(users.map((u) => `Principal ${u.profile.email}`).sort());
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await host?.close();
  await okta?.close();
});

const entityHref = (e: EntityBody) => `/connections/${connectionId}/entities/${e.entity_id}`;
const rowLinks = (table: Locator) => table.locator('tbody tr td:first-child a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
const focusedHref = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('href') ?? document.activeElement?.tagName);
/** A relationship row as the table shows it: kind, from, to. */
const relationshipRows = (table: Locator) => table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll('td'), (td: HTMLTableCellElement) => td.textContent).join(' | ')));

describe('the inventory, page by page', () => {
  for (const size of CONSOLE_SIZES) {
    it(`Show more adds the next page of entities and relationships below the rows shown, from the keyboard (${size.name})`, async () => {
      const { page, errors } = await openConsole(browser, host.url);
      await page.setViewportSize({ width: size.width, height: size.height });
      await signInWithPassword(page, tenant.admin.email, PASSWORD);
      await page.waitForURL('**/connections');
      await page.getByRole('link', { name: 'Acme Okta', exact: true }).click();
      const inventory = page.getByRole('region', { name: 'Inventory' });
      const table = inventory.getByRole('table', { name: 'Entities' });
      await table.waitFor();

      // The first page, and what the status says of it.
      await expect.poll(() => rowLinks(table)).toEqual(entities.slice(0, PAGE).map(entityHref));
      expect(await table.locator('tbody tr td:first-child').allTextContents()).toEqual(entities.slice(0, PAGE).map((e) => e.display_name));
      await inventory.getByText('25 entities shown; there are more.').waitFor();

      // From the keyboard: the second page comes below the first, which stays; focus goes to the first new row.
      const more = inventory.getByRole('button', { name: 'Show more entities' });
      await more.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => rowLinks(table)).toEqual(entities.slice(0, 2 * PAGE).map(entityHref));
      expect(entities.slice(PAGE, 2 * PAGE)).toHaveLength(PAGE);
      await inventory.getByText('50 entities shown; there are more.').waitFor();
      await expect.poll(() => focusedHref(page)).toBe(entityHref(entities[PAGE]!));
      await expectNoHorizontalScroll(page, `inventory, two pages (${size.name})`);
      await checkPage(page, `inventory-two-pages-${size.name}`);

      // The last page: all shown, no button left, focus on its first row.
      await more.focus();
      await page.keyboard.press('Space');
      await expect.poll(() => rowLinks(table)).toEqual(entities.map(entityHref));
      await inventory.getByText('All 63 entities shown.').waitFor();
      expect(await more.count()).toBe(0);
      await expect.poll(() => focusedHref(page)).toBe(entityHref(entities[2 * PAGE]!));

      // Relationships likewise: the second page below the first.
      const relationshipTable = inventory.getByRole('table', { name: 'Relationships' });
      const firstPage = await relationshipRows(relationshipTable);
      expect(firstPage).toHaveLength(PAGE);
      await inventory.getByText('25 relationships shown; there are more.').waitFor();
      await inventory.getByRole('button', { name: 'Show more relationships' }).click();
      await inventory.getByText('All 39 relationships shown.').waitFor();
      const both = await relationshipRows(relationshipTable);
      expect(both).toHaveLength(relationships.length);
      expect(both.slice(0, PAGE)).toEqual(firstPage);
      // Page 2 is the API's second page: its rows name the same ends (name and kind), in the same order.
      const fromNames = relationshipTable.locator('tbody tr td:nth-child(2)');
      const byId = new Map(entities.map((e) => [e.entity_id, `${e.display_name} (${e.kind})`]));
      expect((await fromNames.allTextContents()).slice(PAGE)).toEqual(relationships.slice(PAGE).map((r) => byId.get(r.from_entity_id)));
      await expectNoHorizontalScroll(page, `inventory, every page (${size.name})`);
      await checkPage(page, `inventory-all-pages-${size.name}`);
      expect(errors).toEqual([]);
    });
  }
});
