import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { REPO_ROOT } from '../../support/config.js';

/** Debian's Chromium (infra/local/install.sh chromium); Playwright never downloads a browser. */
export const CHROMIUM_PATH = '/usr/bin/chromium';
export const SCREENSHOT_DIR = join(REPO_ROOT, 'artifacts', 'screenshots');

// Headless, no sandbox (tests run as root in CI), and nothing that phones home: no sync, no
// component updates, no background networking, no QUIC.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export type TestBrowser = {
  browser: BrowserContext;
  page: Page;
  /** Every console error and failed request the page produced, for assertions. */
  problems: string[];
  screenshot: (name: string) => Promise<string>;
  close: () => Promise<void>;
};

/**
 * Launches Chromium with a fresh, empty profile (no cookies or cache shared between test
 * files) and one page. CSP violations and uncaught errors show up in `problems`.
 */
export async function launchBrowser(): Promise<TestBrowser> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'framedeck-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1440, height: 900 },
    deviceScaleFactor: 1,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const problems: string[] = [];
  page.on('console', (message) => {
    // NOTE: Chromium logs every 4xx/5xx response as "Failed to load resource"; the tests
    // provoke some on purpose (wrong password, rejected SQL). CSP violations ("Refused to …")
    // and script errors are what must never happen.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      problems.push(`console: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return {
    browser: context,
    page,
    problems,
    screenshot: async (name) => {
      const path = join(SCREENSHOT_DIR, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
