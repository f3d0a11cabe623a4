// The documentation page (#16) in a real browser: /api/swagger renders from the package's own files (no
// request leaves the machine), lists every operation under its tags, and after "Authorize" with a token
// "Try it out" + "Execute" answers GET /version and the signed-in user's GET /user. Screenshots in
// test-output/screenshots/.
import type { Page } from 'playwright-core';
import * as assert from 'uvu/assert';
import { test } from 'uvu';
import { loadSpec } from '../../src/api/spec.js';
import { browserTest, openBrowser, type BrowserSession } from '../helpers/browser.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { actor, type Actor } from '../helpers/repos.js';

const it = browserTest('browserDocs');
let app: TestApp;
let browser: BrowserSession;
let user: Actor;
let page: Page;

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Each operation of the spec with its tags (swagger-ui files an untagged one under `default`). */
function specOperations(): Array<{ operationId: string; tags: string[] }> {
  const doc = loadSpec() as unknown as { paths: Record<string, Record<string, { operationId: string; tags?: string[] }>> };
  return Object.values(doc.paths).flatMap((item) =>
    methods.filter((m) => item[m]).map((m) => ({ operationId: item[m]!.operationId, tags: item[m]!.tags?.length ? item[m]!.tags! : ['default'] })),
  );
}

test.before(async () => {
  if (it === test) {
    [app, browser] = await Promise.all([startApp(), openBrowser()]);
    user = await actor(app);
  }
});
test.after(async () => {
  await browser?.close();
  await app?.close();
});

// Run in the page as source text: tsx would wrap functions written here in helpers the page lacks.
// `scan(id)` scrolls down the page a screen at a time (swagger-ui renders only the operations near the
// viewport once there are this many: a window virtualizer), collecting the operation blocks and tags it
// renders; with an id it stops at that block, scrolled to the top of the viewport.
const scanScript = (id?: string) => `(async () => {
  const want = ${JSON.stringify(id ?? null)};
  const ops = new Set(), tags = new Set();
  const frames = () => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
  for (let y = 0; y <= document.documentElement.scrollHeight; y += window.innerHeight - 100) {
    window.scrollTo(0, y);
    await frames();
    if (want && document.getElementById(want)) {
      document.getElementById(want).scrollIntoView({ block: 'start' });
      await frames();
      return { found: true, ops: [], tags: [] };
    }
    document.querySelectorAll('.opblock').forEach((e) => ops.add(e.id));
    document.querySelectorAll('.opblock-tag').forEach((e) => tags.add(e.getAttribute('data-tag')));
  }
  return { found: false, ops: [...ops], tags: [...tags] };
})()`;

type Scan = { found: boolean; ops: string[]; tags: string[] };

/** Every operation block and tag swagger-ui renders, scrolling down the whole page. */
const renderedBlocks = (page: Page) => page.evaluate(scanScript()) as Promise<Scan>;

/** Scrolls down until swagger-ui renders the block with this id, and answers it. */
async function reveal(page: Page, id: string) {
  const { found } = (await page.evaluate(scanScript(id))) as Scan;
  assert.ok(found, `block ${id} rendered`);
  return page.locator(`#${id}`);
}

it('GET /api/swagger renders every operation under its tags, loading nothing from outside', async () => {
  page = await browser.page();
  const answer = await page.goto(`${app.url}/api/swagger`);
  assert.is(answer?.status(), 200);
  await page.locator('.swagger-ui .info .title').waitFor();
  assert.match(await page.locator('.swagger-ui .info .title').innerText(), 'anvil');
  await page.locator('.opblock').first().waitFor();
  await browser.screenshot(page, 'docs-page');
  // Every operation is a block in each of its tags' sections (all open: docExpansion "list").
  const ops = specOperations();
  const want = ops.flatMap((o) => o.tags.map((t) => `operations-${t}-${o.operationId}`)).sort();
  const seen = await renderedBlocks(page);
  assert.equal(seen.ops.sort(), want, 'one block per operation and tag');
  assert.equal(seen.tags.sort(), [...new Set(ops.flatMap((o) => o.tags))].sort(), 'a section per tag');
  for (const [tag, operationId, path] of [
    ['miscellaneous', 'getVersion', '/version'],
    ['user', 'userGetCurrent', '/user'],
    ['repository', 'repoGet', '/repos/{owner}/{repo}'],
  ]) {
    const block = await reveal(page, `operations-${tag}-${operationId}`);
    assert.is(await block.locator('.opblock-summary-path').getAttribute('data-path'), path, operationId);
  }
  browser.assertStayedLocal();
});

it('"Authorize" with a token, then "Try it out" on GET /version and GET /user shows their answers', async () => {
  await page.evaluate('window.scrollTo(0, 0)');
  await page.locator('.swagger-ui .auth-wrapper .authorize').click();
  const scheme = page.locator('.modal-ux .auth-container').filter({ hasText: 'AuthorizationHeaderToken' });
  await scheme.locator('input').fill(user.auth);
  await scheme.locator('button.authorize').click();
  await scheme.locator('button', { hasText: 'Logout' }).waitFor();
  await page.locator('.modal-ux .close-modal').click();

  const execute = async (id: string): Promise<{ status: string; body: string }> => {
    const block = await reveal(page, id);
    await block.locator('.opblock-summary-control').click();
    await block.locator('.try-out__btn').click();
    await block.locator('.execute').click();
    const live = block.locator('.live-responses-table .response');
    await live.first().waitFor();
    return {
      status: (await live.first().locator('.response-col_status').innerText()).trim(),
      body: await live.first().locator('.response-col_description .microlight, .response-col_description pre').first().innerText(),
    };
  };

  const version = await execute('operations-miscellaneous-getVersion');
  await browser.screenshot(page.locator('#operations-miscellaneous-getVersion'), 'docs-try-it-version');
  assert.is(version.status, '200');
  assert.match(version.body, /"version":\s*"1\.26\.0\+anvil-[^"]+"/);

  const me = await execute('operations-user-userGetCurrent');
  assert.is(me.status, '200');
  assert.match(me.body, new RegExp(`"login":\\s*"${user.username}"`));
  await browser.screenshot(page.locator('#operations-user-userGetCurrent'), 'docs-try-it-user');
  browser.assertStayedLocal();
});

test.run();
