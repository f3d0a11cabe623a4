// GET /repos/{owner}/{repo}/wiki/pages: the wiki's top-level Markdown files with their last commits, pages
// pushed over git included; readers of the wiki only.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { wrongScope } from '../../helpers/gitFixtures.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { newWikiPage, pushToWiki, wikiWorld, type WikiWorld } from '../../helpers/wiki.js';

let app: TestApp;
let w: WikiWorld;

test.before(async () => {
  app = await startApp();
  w = await wikiWorld(app);
});
test.after(async () => {
  await app?.close();
});

const list = (auth?: string, path = w.path, query: { page?: number; limit?: number } = {}) =>
  app.client(auth).GET('/repos/{owner}/{repo}/wiki/pages', { params: { path, query } });

test('404 before the wiki exists; then pages from the API and from git, with last_commit, paginated', async () => {
  assert.is((await list()).response.status, 404, 'no wiki yet');
  const home = await newWikiPage(app, w.path, 'Home', w.r.owner);
  await newWikiPage(app, w.path, 'Second page', w.r.writer);
  const pushed = await pushToWiki(app, w.path, w.repo.default_branch, { 'From-Git.md': 'pushed\n', 'notes.txt': 'not a page', 'sub/Deep.md': 'not top level' });
  const res = await list();
  assert.is(res.response.status, 200, JSON.stringify(res.error));
  assertSpec('repoGetWikiPages', res);
  assert.equal(res.data!.map((p) => p.sub_url).sort(), ['From-Git', 'Home', 'Second-page']);
  const fromGit = res.data!.find((p) => p.sub_url === 'From-Git')!;
  assert.is(fromGit.title, 'From Git');
  assert.is(fromGit.last_commit.sha, pushed);
  assert.is(fromGit.html_url, `${app.config.rootUrl}${w.repo.full_name}/wiki/From-Git`);
  assert.equal(res.data!.find((p) => p.sub_url === 'Home')!.last_commit, home.last_commit);
  assert.is(res.response.headers.get('x-total-count'), '3');
  const second = await list(undefined, w.path, { page: 2, limit: 2 });
  assert.is(second.data!.length, 1);
});

test('404 private repository for anonymous and outsiders, 200 for a reader; 403 token without the scope', async () => {
  await newWikiPage(app, w.privPath, 'Private', w.r.owner);
  assert.is((await list(undefined, w.privPath)).response.status, 404);
  assert.is((await list(w.r.outsider.auth, w.privPath)).response.status, 404);
  assert.equal((await list(w.r.reader.auth, w.privPath)).data!.map((p) => p.title), ['Private']);
  const scoped = await list(await wrongScope(app, w.r.owner, false), w.privPath);
  assert.is(scoped.response.status, 403);
  assertSpec('repoGetWikiPages', scoped);
});

test.run();
