/**
 * The web console in a real browser for tests: Debian's Chromium (its headless shell), through
 * playwright-core. Each page records browser console errors and uncaught exceptions (the test
 * asserts there are none), and `checkPage` scans it with axe and keeps a screenshot under
 * test-output/console/ (gitignored) for a person to look at.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import axe from 'axe-core';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { consoleDistDir } from '../../infra/local/console-build';
import { consoleSite } from '../../infra/local/console-site';
import { REPOSITORY } from './npm-start';
import { startTestHost, type TestHost, type TestHostOptions } from './test-host';

export const SCREENSHOT_DIR = path.join(REPOSITORY, 'test-output', 'console');
/**
 * Debian's chromium-headless-shell: Chromium's headless-only build (the one Playwright itself
 * drives headless). The full browser run headless took more than twice its CPU here (the
 * run-page file: 56 s of Chromium CPU against 23 s), on machines with two cores.
 */
const CHROMIUM = '/usr/bin/chromium-headless-shell';

/** The test host serving the console's build at `/` beside the API, as `npm start` does. */
export function startConsoleHost(options: Omit<TestHostOptions, 'site'> = {}): Promise<TestHost> {
  return startTestHost({ ...options, site: consoleSite(consoleDistDir) });
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
}

export interface ConsolePage {
  page: Page;
  /** Console errors and uncaught exceptions seen so far. */
  errors: string[];
}

/**
 * A fresh browser context (its own sessionStorage) on the console. Chromium logs every
 * non-2xx fetch as "Failed to load resource"; the console answers 4xx problems of the API on
 * purpose (a wrong code, step-up's 401, a 412), so those, for `/v1/` only, are not errors;
 * nor is the favicon Chromium looks for, unasked, on an IdP's page that names none.
 * Everything else logged as an error is, 5xx answers included.
 */
export async function openConsole(browser: Browser, baseUrl: string): Promise<ConsolePage> {
  // A fixed locale and zone, so the times the console shows in the reader's are the same on every machine.
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { ...WIDE }, locale: 'en-US', timezoneId: 'UTC' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const failedLoad = /^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text());
    const { origin, pathname } = new URL(message.location().url || baseUrl);
    const handledApiProblem = failedLoad && pathname.startsWith('/v1/');
    // Chromium asks an IdP's page (SimpleSAMLphp's) for /favicon.ico of its own accord when the
    // page names no icon; a missing one there is not an error of the console, which names its icon.
    const idpFavicon = failedLoad && pathname === '/favicon.ico' && origin !== new URL(baseUrl).origin;
    if (!handledApiProblem && !idpFavicon) errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return { page, errors };
}

/** No serious or critical accessibility violation on the page as it is now; then a screenshot named `name`. */
export async function checkPage(page: Page, name: string): Promise<void> {
  const results = await scanWithAxe(page);
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious, `accessibility violations on ${name}`).toEqual([]);
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

type AxeWindow = Window & { axe?: typeof axe };

/**
 * axe-core's full rule set (every rule but the experimental ones, as axe's own integrations run
 * it) on the page's document, violations only. axe is put in a document once, when first
 * scanned, and the console is one document: the integrations inject it again for every scan,
 * and the Playwright one then finishes the scan in a second blank page, which made a scan of a
 * 126-element page take 1.9 s here against 0.15 s for the audit itself. The console has no
 * iframes, which is all that second page is for.
 */
async function scanWithAxe(page: Page): Promise<axe.AxeResults> {
  if (!(await page.evaluate(() => typeof (window as AxeWindow).axe === 'object'))) await page.evaluate(axe.source);
  return page.evaluate(() => (window as AxeWindow).axe!.run(document, { resultTypes: ['violations'] }));
}

/** The first step of every sign-in: `/sign-in`, the work email, Continue. Discovery then shows the password form or sends the browser to the tenant's IdP. */
export async function continueWithEmail(page: Page, email: string): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('Work email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
}

/**
 * At SimpleSAMLphp's own login form (exampleauth:UserPass), once the browser is sent there:
 * the user's credentials and its Login button. Its HTTP-POST page then submits itself to
 * Tessera's assertion consumer; where that lands is the caller's to wait for.
 */
export async function signInAtSimpleSamlPhp(page: Page, idpUrl: string, username: string, password: string): Promise<void> {
  await page.waitForURL((url) => url.origin === idpUrl);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

/** Signs in from `/sign-in` with a password: email discovery, then the password form. Where it lands (connections, an MFA challenge) is the caller's to wait for. */
export async function signInWithPassword(page: Page, email: string, password: string): Promise<void> {
  await continueWithEmail(page, email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The two sizes every main page is checked at: a laptop and a phone. */
export const WIDE = { width: 1280, height: 800 } as const;
export const PHONE = { width: 390, height: 844 } as const;
export const CONSOLE_SIZES = [{ name: 'wide', ...WIDE }, { name: 'phone', ...PHONE }] as const;

/** The page is no wider than the window (WCAG 1.4.10 reflow): nothing scrolls sideways. */
export async function expectNoHorizontalScroll(page: Page, what: string): Promise<void> {
  // A string, run in the page: what sticks out, innermost first, so a failure names the culprit.
  const { scrollWidth, clientWidth, widest } = await page.evaluate<{ scrollWidth: number; clientWidth: number; widest: string[] }>(`(() => {
    const width = document.documentElement.clientWidth;
    const sticksOut = (e) => e.getBoundingClientRect().right > width + 1;
    const out = [...document.querySelectorAll('body *')].filter((e) => sticksOut(e) && ![...e.children].some(sticksOut));
    return { scrollWidth: document.documentElement.scrollWidth, clientWidth: width, widest: out.slice(0, 5).map((e) => e.tagName.toLowerCase() + '.' + e.className + ' "' + (e.textContent || '').slice(0, 40) + '"') };
  })()`);
  expect(scrollWidth, `${what} scrolls sideways: ${widest.join(', ')}`).toBeLessThanOrEqual(clientWidth);
}
