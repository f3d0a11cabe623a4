// Browser tests: Debian's headless Chromium driven by playwright-core (which downloads no browser of its
// own). One browser per test file. Every request a page makes to anything but this machine is blocked and
// remembered, and the test fails on it: the pages must load nothing from the internet.
// Without Chromium the browser tests are skipped with a printed reason, except in CI (CI=true), where
// `.ci/run` installs it and a missing browser is a failure.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { test as uvuTest, type Test } from 'uvu';
import * as assert from 'uvu/assert';
import { fromRoot } from '../../src/paths.js';

export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Where screenshots go: TEST_SCREENSHOT_DIR, else test-output/screenshots/ in the project (gitignored). */
export const screenshotDir = process.env.TEST_SCREENSHOT_DIR || fromRoot('test-output', 'screenshots');

const local = new Set(['127.0.0.1', 'localhost', '[::1]']);

export interface BrowserSession {
  browser: Browser;
  /** A fresh page in its own context (no cookies or storage shared with other pages). */
  page(): Promise<Page>;
  /** Writes `<name>.png` (the page's viewport, or one element) to the screenshot folder; answers its path. */
  screenshot(target: Page | Locator, name: string): Promise<string>;
  /** The requests to other hosts that were blocked since the last look (and forgets them). */
  takeOutside(): string[];
  /** Fails the test when a page tried to reach anything outside this machine (and forgets what it saw). */
  assertStayedLocal(): void;
  close(): Promise<void>;
}

/**
 * The uvu `test` to register browser tests with: the real one when Chromium is installed; without it, one
 * that skips them (a reason printed once), or in CI one failing test saying Chromium is missing.
 */
export function browserTest(file: string): Test | ((name: string, fn: () => void | Promise<void>) => void) {
  if (existsSync(chromiumPath)) return uvuTest;
  if (process.env.CI === 'true') {
    uvuTest(`${file}: Chromium is installed at ${chromiumPath}`, () => {
      assert.unreachable(`no Chromium at ${chromiumPath}: .ci/run installs it (apt-get install chromium); CHROMIUM_PATH names another`);
    });
    return () => {};
  }
  process.stdout.write(`${file}: skipped: no Chromium at ${chromiumPath} (apt-get install chromium, or set CHROMIUM_PATH)\n`);
  return (name: string, fn: () => void | Promise<void>) => uvuTest.skip(name, fn);
}

export async function openBrowser(): Promise<BrowserSession> {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const outside: string[] = [];
  const contexts: BrowserContext[] = [];
  mkdirSync(screenshotDir, { recursive: true });
  return {
    browser,
    async page() {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      contexts.push(context);
      await context.route('**/*', (route) => {
        const url = new URL(route.request().url());
        if ((url.protocol === 'http:' || url.protocol === 'https:') && !local.has(url.hostname)) {
          outside.push(url.href);
          return route.abort('blockedbyclient');
        }
        return route.continue();
      });
      return context.newPage();
    },
    async screenshot(target, name) {
      const path = join(screenshotDir, `${name}.png`);
      await target.screenshot({ path });
      assert.ok(existsSync(path), `screenshot ${path} written`);
      return path;
    },
    takeOutside() {
      return outside.splice(0);
    },
    assertStayedLocal() {
      const seen = outside.splice(0);
      assert.equal(seen, [], `the page tried to load from outside this machine: ${seen.join(', ')}`);
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => {});
      await browser.close();
    },
  };
}
