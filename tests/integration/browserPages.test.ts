// The pages behind html_url (#16) in a real browser: a repository's page shows its rendered README and
// its files, and a click opens a file; an issue's page shows its title, labels and rendered comments, and
// the scripts users write in a body never run. Nothing is loaded from outside the machine (a README image
// on another host included). Screenshots in test-output/screenshots/.
import type { Page } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { browserTest, openBrowser, type BrowserSession } from '../helpers/browser.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { actor, userRepo, type Actor, type Repository } from '../helpers/repos.js';

const it = browserTest('browserPages');
let app: TestApp;
let browser: BrowserSession;
let owner: Actor;
let repo: Repository;
let issue: { number: number; title: string };
let commentId: number;
const labelName = 'needs <triage>';

const b64 = (s: string) => Buffer.from(s).toString('base64');
// Each would set a flag on the page if it ran.
const scripts = [
  '<script>window.anvilPwned = "script"</script>',
  '<img src="x" onerror="window.anvilPwned = \'onerror\'">',
  '[click](javascript:window.anvilPwned=1)',
].join('\n\n');

test.before(async () => {
  if (it !== test) return;
  [app, browser] = await Promise.all([startApp(), openBrowser()]);
  owner = await actor(app);
  repo = await userRepo(app, owner, { description: 'Browser pages' });
  const api = app.client(owner.auth);
  const path = { owner: owner.username, repo: repo.name };
  const files = await api.POST('/repos/{owner}/{repo}/contents', {
    params: { path },
    body: {
      message: 'first',
      files: [
        { operation: 'create', path: 'README.md', content: b64(`# Hello *browser*\n\nA [link](https://example.com/) and a remote picture: ![logo](https://example.com/logo.png)\n\n${scripts}\n`) },
        { operation: 'create', path: 'notes.txt', content: b64('first line\n<b>second</b> line\n') },
        { operation: 'create', path: 'docs/guide.md', content: b64('# Guide\n') },
      ],
    },
  });
  assert.is(files.response.status, 201, JSON.stringify(files.error));
  const label = await api.POST('/repos/{owner}/{repo}/labels', { params: { path }, body: { name: labelName, color: '#ee0701' } });
  assert.is(label.response.status, 201);
  const created = await api.POST('/repos/{owner}/{repo}/issues', {
    params: { path },
    body: { title: 'It <breaks> in the browser', body: `Steps:\n\n1. open\n2. *see*\n\n${scripts}`, labels: [label.data!.id] },
  });
  assert.is(created.response.status, 201);
  issue = { number: created.data!.number, title: created.data!.title };
  const comment = await api.POST('/repos/{owner}/{repo}/issues/{index}/comments', {
    params: { path: { ...path, index: issue.number } },
    body: { body: `A **bold** comment\n\n${scripts}` },
  });
  assert.is(comment.response.status, 201);
  commentId = comment.data!.id;
});
test.after(async () => {
  await browser?.close();
  await app?.close();
});

/** Dialogs (alert, confirm) a user's script opened: there must be none. */
const dialogs: string[] = [];

async function openPage(): Promise<Page> {
  const page = await browser.page();
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return page;
}

it('the repository page shows the rendered README and the file tree; a click opens a file', async () => {
  const page = await openPage();
  const answer = await page.goto(`${app.url}/${owner.username}/${repo.name}`);
  assert.is(answer?.status(), 200);
  assert.match(await page.locator('main > h1').innerText(), `${owner.username}/${repo.name}`);
  const readme = page.locator('article.markdown.readme');
  assert.is((await readme.locator('h1').innerText()).trim(), 'Hello browser');
  assert.is(await readme.locator('h1 em').innerText(), 'browser', 'Markdown rendered');
  const names = (await page.locator('table.files td.name').allInnerTexts()).map((n) => n.trim());
  for (const name of ['docs/', 'README.md', 'notes.txt']) assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
  await browser.screenshot(page, 'repo-page');
  assert.is(await page.evaluate('window.anvilPwned'), undefined, 'no script of the README ran');

  await page.locator('table.files a', { hasText: 'notes.txt' }).click();
  await page.waitForURL(/\/src\/branch\/[^/]+\/notes\.txt$/);
  assert.is((await page.locator('main > h1').innerText()).trim(), 'notes.txt');
  const text = await page.locator('main').innerText();
  assert.match(text, 'first line');
  assert.match(text, '<b>second</b> line', 'the file shown as text, not as HTML');
  await browser.screenshot(page, 'repo-file');
  browser.assertStayedLocal();
  assert.equal(dialogs, [], 'no dialog opened');
});

it('the issue page shows the title, labels and rendered comments; scripts in bodies never run', async () => {
  const page = await openPage();
  const answer = await page.goto(`${app.url}/${owner.username}/${repo.name}/issues/${issue.number}`);
  assert.is(answer?.status(), 200);
  assert.match(await page.locator('main > h1').innerText(), issue.title);
  assert.equal((await page.locator('main span.label').allInnerTexts()).map((l) => l.trim()), [labelName]);
  const comment = page.locator(`div.comment#issuecomment-${commentId}`);
  assert.is(await comment.locator('div.markdown strong').innerText(), 'bold', 'the comment rendered as Markdown');
  assert.is(await page.locator('main div.markdown em', { hasText: 'see' }).count(), 1, 'the body rendered as Markdown');
  assert.is(await page.locator('main script').count(), 0, 'no script element from a body');
  assert.is(await page.locator('main [onerror]').count(), 0, 'no event handler from a body');
  assert.is(await page.locator('main a[href^="javascript:"]').count(), 0, 'no javascript: link');
  assert.is(await page.evaluate('window.anvilPwned'), undefined, 'no script of a body ran');
  await browser.screenshot(page, 'issue-page');
  browser.assertStayedLocal();
  assert.equal(dialogs, [], 'no dialog opened');
});

it('the guard itself: a page that reaches for another host is caught and blocked', async () => {
  const page = await browser.page();
  const failed = new Promise<string>((res) => page.on('requestfailed', (r) => res(r.url())));
  await page.setContent('<img src="https://example.com/pixel.png">');
  assert.is(await failed, 'https://example.com/pixel.png', 'the request was blocked');
  await page.context().close();
  const seen = browser.takeOutside();
  assert.ok(seen.length > 0 && seen.every((u) => u === 'https://example.com/pixel.png'), seen.join(', '));
});

test.run();
