// DELETE /repos/{owner}/{repo}/wiki/page/{pageName}: the page's file goes in a commit of its own; writers only.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { disk, setArchived } from '../../helpers/gitFixtures.js';
import { eventsOf } from '../../helpers/events.js';
import type { Actor } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { newWikiPage, pushToWiki, wikiDirOf, wikiWorld, type WikiWorld } from '../../helpers/wiki.js';

let app: TestApp;
let w: WikiWorld;

test.before(async () => {
  app = await startApp();
  w = await wikiWorld(app);
});
test.after(async () => {
  await app?.close();
});

const del = (pageName: string, as?: Actor, path = w.path) =>
  app.client(as?.auth).DELETE('/repos/{owner}/{repo}/wiki/page/{pageName}', { params: { path: { ...path, pageName } } });

test('204: API and git-pushed pages go, others stay; the deleted event; then 404', async () => {
  await newWikiPage(app, w.path, 'Keep', w.r.owner);
  await newWikiPage(app, w.path, 'Drop me', w.r.owner);
  await pushToWiki(app, w.path, w.repo.default_branch, { 'Pushed.md': 'from git' });
  for (const name of ['Drop-me', 'Pushed']) {
    const res = await del(name, w.r.writer);
    assert.is(res.response.status, 204, `${name}: ${JSON.stringify(res.error)}`);
    assertSpec('repoDeleteWikiPage', res);
    assert.is((await del(name, w.r.writer)).response.status, 404, 'already gone');
  }
  const dir = wikiDirOf(app, w.path);
  assert.equal(await disk.files(dir, 'HEAD'), ['Keep.md']);
  assert.match(await disk.run(dir, ['log', '-1', '--format=%s']), 'Delete page "Pushed"');
  const { rows } = await eventsOf(app, w.repo.id);
  assert.is(rows.filter((e) => e.type === 'wiki' && e.action === 'deleted').length, 2);
});

test('401 anonymous, 403 reader, 404 outsider on a private repository or no wiki, 423 archived', async () => {
  assert.is((await del('P', w.r.owner, w.privPath)).response.status, 404, 'no wiki yet');
  await newWikiPage(app, w.privPath, 'P', w.r.owner);
  assert.is((await del('P', undefined, w.privPath)).response.status, 401);
  const reader = await del('P', w.r.reader, w.privPath);
  assert.is(reader.response.status, 403);
  assertSpec('repoDeleteWikiPage', reader);
  assert.is((await del('P', w.r.outsider, w.privPath)).response.status, 404);
  await setArchived(app, w.priv, w.r.owner);
  const archived = await del('P', w.r.owner, w.privPath);
  assert.is(archived.response.status, 423);
  assertSpec('repoDeleteWikiPage', archived);
});

test.run();
