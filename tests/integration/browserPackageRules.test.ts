// A package cleanup rule made in a real browser (headless Chromium): sign in, open the package settings,
// add a rule through the form (a pattern that is not a regular expression is refused with its message and
// the form keeps what was typed), open its preview, and check that `cleanup_packages` removes exactly the
// versions the preview listed. The pages load nothing from outside this machine.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { browserTest, openBrowser, type BrowserSession } from '../helpers/browser.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { signInOnPage } from '../helpers/oauth.js';
import { actor, adminActor } from '../helpers/orgs.js';
import { publishGeneric } from '../helpers/packages.js';

const it = browserTest('browserPackageRules');
let app: TestApp;
let browser: BrowserSession;

test.before(async () => {
  if (it !== test) return;
  [app, browser] = await Promise.all([startApp(), openBrowser()]);
});
test.after(async () => {
  await browser?.close();
  await app?.close();
});

it('add a rule through the form, preview it, and the task removes what the preview listed', async () => {
  const u = await actor(app);
  for (const v of ['1.0.0', '1.1.0', '2.0.0']) await publishGeneric(app, u, u.username, { name: 'cli', version: v, body: `cli ${v} ${u.username}` });
  const page = await browser.page();
  await page.goto(`${app.url}/user/settings/packages`);
  await signInOnPage(page, u);
  assert.is(new URL(page.url()).pathname, '/user/settings/packages');
  await Promise.all([page.waitForLoadState('load'), page.click('a.add-rule')]);

  await page.selectOption('select[name=type]', 'generic');
  await page.selectOption('select[name=keep_count]', '1');
  await page.fill('input[name=remove_pattern]', '1\\.(');
  const [refused] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.click('button.save')]);
  assert.is(refused.status(), 422);
  assert.match((await page.textContent('p.flash.error'))!, 'remove_pattern: the regular expression is invalid');
  assert.is(await page.inputValue('input[name=remove_pattern]'), '1\\.(');
  assert.is(await page.inputValue('select[name=keep_count]'), '1');

  await page.fill('input[name=remove_pattern]', '1\\..*');
  await Promise.all([page.waitForLoadState('load'), page.click('button.save')]);
  assert.match(new URL(page.url()).pathname, /^\/user\/settings\/packages\/rules\/\d+$/);
  assert.is(await page.inputValue('input[name=remove_pattern]'), '1\\..*');

  await Promise.all([page.waitForLoadState('load'), page.click('a.preview')]);
  const listed = (await page.$$eval('tr.version td.version-name', (cells) => cells.map((c) => c.textContent ?? ''))).sort();
  // 2.0.0 is the newest (kept by the count); 1.1.0 and 1.0.0 match.
  assert.equal(listed, ['1.0.0', '1.1.0']);
  await browser.screenshot(page, 'package-cleanup-rule-preview');

  const admin = await adminActor(app);
  assert.is((await fetch(`${app.url}/api/v1/admin/cron/cleanup_packages`, { method: 'POST', headers: { Authorization: admin.auth } })).status, 204);
  const left = await app.client(u.auth).GET('/packages/{owner}/{type}/{name}', { params: { path: { owner: u.username, type: 'generic', name: 'cli' } } });
  assert.equal(left.data!.map((p) => p.version), ['2.0.0']);
  await page.reload();
  assert.is(await page.textContent('span.count'), '0');
  browser.assertStayedLocal();
});

test.run();
