// GET /repos/{owner}/{repo}/wiki/revisions/{pageName}: the commits that touched a page, newest first, with count.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { b64, newWikiPage, pushToWiki, wikiWorld, type WikiWorld } from '../../helpers/wiki.js';

let app: TestApp;
let w: WikiWorld;

test.before(async () => {
  app = await startApp();
  w = await wikiWorld(app);
});
test.after(async () => {
  await app?.close();
});

const revisions = (pageName: string, auth?: string, path = w.path, query: { page?: number; limit?: number } = {}) =>
  app.client(auth).GET('/repos/{owner}/{repo}/wiki/revisions/{pageName}', { params: { path: { ...path, pageName }, query } });

test('200: every commit of the page, newest first (API edits and git pushes), not other pages\' commits; paginated', async () => {
  const created = await newWikiPage(app, w.path, 'Home', w.r.owner);
  await newWikiPage(app, w.path, 'Other', w.r.owner);
  const edited = await app.client(w.r.writer.auth).PATCH('/repos/{owner}/{repo}/wiki/page/{pageName}', {
    params: { path: { ...w.path, pageName: 'Home' } }, body: { content_base64: b64('v2'), message: 'second' },
  });
  assert.is(edited.response.status, 200);
  const pushed = await pushToWiki(app, w.path, w.repo.default_branch, { 'Home.md': 'v3' });
  const res = await revisions('Home');
  assert.is(res.response.status, 200, JSON.stringify(res.error));
  assertSpec('repoGetWikiPageRevisions', res);
  assert.is(res.data!.count, 3);
  assert.equal(res.data!.commits.map((c) => c.sha), [pushed, edited.data!.last_commit.sha, created.last_commit.sha]);
  assert.is(res.data!.commits[1]!.message, 'second\n');
  const paged = await revisions('Home', undefined, w.path, { page: 2, limit: 2 });
  assert.equal(paged.data!.commits.map((c) => c.sha), [created.last_commit.sha]);
  assert.is(paged.data!.count, 3);
});

test('404: unknown page, no wiki, private repository for outsiders', async () => {
  assert.is((await revisions('Nope')).response.status, 404);
  assert.is((await revisions('Home', undefined, w.privPath)).response.status, 404, 'no wiki yet');
  await newWikiPage(app, w.privPath, 'Home', w.r.owner);
  const res = await revisions('Home', w.r.outsider.auth, w.privPath);
  assert.is(res.response.status, 404);
  assertSpec('repoGetWikiPageRevisions', res);
  assert.is((await revisions('Home', w.r.reader.auth, w.privPath)).data!.count, 1);
});

test.run();
