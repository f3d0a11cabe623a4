// PATCH /repos/{owner}/{repo}/wiki/page/{pageName}: new content and, with a new title, a rename; writers only.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { disk, setArchived } from '../../helpers/gitFixtures.js';
import { eventsOf } from '../../helpers/events.js';
import type { Actor } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { b64, newWikiPage, wikiDirOf, wikiWorld, type WikiWorld } from '../../helpers/wiki.js';

let app: TestApp;
let w: WikiWorld;

test.before(async () => {
  app = await startApp();
  w = await wikiWorld(app);
});
test.after(async () => {
  await app?.close();
});

const edit = (pageName: string, body: { title?: string; content_base64?: string; message?: string }, as?: Actor, path = w.path) =>
  app.client(as?.auth).PATCH('/repos/{owner}/{repo}/wiki/page/{pageName}', { params: { path: { ...path, pageName } }, body });

test('200: content changed (default message), then renamed keeping its content; the old name is 404; edited events', async () => {
  await newWikiPage(app, w.path, 'Guide', w.r.owner);
  const res = await edit('Guide', { content_base64: b64('new text') }, w.r.writer);
  assert.is(res.response.status, 200, JSON.stringify(res.error));
  assertSpec('repoEditWikiPage', res);
  assert.is(Buffer.from(res.data!.content_base64, 'base64').toString(), 'new text');
  assert.is(res.data!.last_commit.message, 'Update "Guide"\n');
  assert.is(res.data!.commit_count, 2);
  const renamed = await edit('Guide', { title: 'User Guide' }, w.r.writer);
  assert.is(renamed.response.status, 200);
  assert.is(renamed.data!.sub_url, 'User-Guide');
  assert.is(Buffer.from(renamed.data!.content_base64, 'base64').toString(), 'new text');
  const dir = wikiDirOf(app, w.path);
  assert.equal(await disk.files(dir, 'HEAD'), ['User-Guide.md']);
  const old = await app.client().GET('/repos/{owner}/{repo}/wiki/page/{pageName}', { params: { path: { ...w.path, pageName: 'Guide' } } });
  assert.is(old.response.status, 404);
  const { rows } = await eventsOf(app, w.repo.id);
  assert.is(rows.filter((e) => e.type === 'wiki' && e.action === 'edited').length, 2);
});

test('400: renamed onto an existing page, a reserved title, bad base64; 404 unknown page or no wiki', async () => {
  await newWikiPage(app, w.path, 'A', w.r.owner);
  await newWikiPage(app, w.path, 'B', w.r.owner);
  for (const body of [{ title: 'B' }, { title: '_edit' }, { content_base64: '%%%' }]) {
    const res = await edit('A', body, w.r.owner);
    assert.is(res.response.status, 400, JSON.stringify(body));
    assertSpec('repoEditWikiPage', res);
  }
  assert.is((await edit('Nope', { content_base64: b64('x') }, w.r.owner)).response.status, 404);
  assert.is((await edit('A', { content_base64: b64('x') }, w.r.owner, w.privPath)).response.status, 404, 'no wiki yet');
});

test('401 anonymous, 403 reader, 404 outsider on a private repository, 423 archived', async () => {
  await newWikiPage(app, w.privPath, 'P', w.r.owner);
  assert.is((await edit('P', { content_base64: b64('x') }, undefined, w.privPath)).response.status, 401);
  const reader = await edit('P', { content_base64: b64('x') }, w.r.reader, w.privPath);
  assert.is(reader.response.status, 403);
  assertSpec('repoEditWikiPage', reader);
  assert.is((await edit('P', { content_base64: b64('x') }, w.r.outsider, w.privPath)).response.status, 404);
  await setArchived(app, w.priv, w.r.owner);
  const archived = await edit('P', { content_base64: b64('x') }, w.r.owner, w.privPath);
  assert.is(archived.response.status, 423);
  assertSpec('repoEditWikiPage', archived);
});

test.run();
