// GET /repos/{owner}/{repo}/tags/{tag}: one tag (lightweight or annotated) as the tag list shows it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { dirOf, disk, repoFor, wrongScope } from '../../helpers/gitFixtures.js';
import { pathOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { diskTag, tagWorld, type TagWorld } from '../../helpers/tags.js';

let app: TestApp;
let w: TagWorld;

test.before(async () => {
  app = await startApp();
  w = await tagWorld(app);
  await diskTag(w.dir, 'v1', w.tip);
  await diskTag(w.dir, 'release/v2', w.tip, 'annotated\n');
  await diskTag(w.dir, 'nested/deeper', w.tip);
  const privDir = dirOf(app, w.priv);
  await diskTag(privDir, 'p1', (await disk.tip(privDir, 'main'))!);
});
test.after(async () => {
  await app?.close();
});

const get = (tag: string, as?: string, path = w.path) => app.client(as).GET('/repos/{owner}/{repo}/tags/{tag}', { params: { path: { ...path, tag } } });

test('200: the same object as in the list, lightweight and annotated, names with slashes; anonymous on a public repository', async () => {
  const list = await app.client().GET('/repos/{owner}/{repo}/tags', { params: { path: w.path } });
  for (const name of ['v1', 'release/v2', 'nested/deeper']) {
    const res = await get(name);
    assert.is(res.response.status, 200, `${name}: ${JSON.stringify(res.error)}`);
    assertSpec('repoGetTag', res);
    assert.equal(res.data, list.data!.find((t) => t.name === name), name);
  }
  const annotated = (await get('release/v2')).data!;
  assert.is(annotated.message, 'annotated');
  assert.is.not(annotated.id, annotated.commit.sha, 'the tag object\'s id');
  const escaped = await fetch(`${app.url}/api/v1/repos/${w.path.owner}/${w.path.repo}/tags/release%2Fv2`);
  assert.is(escaped.status, 200);
});

test('404: unknown tag, a branch name, a prefix of a tag, an empty repository; private repository for outsiders and anonymous', async () => {
  for (const name of ['nope', 'main', 'release', 'nested', 'v1/']) {
    const res = await get(name, w.r.owner.auth);
    assert.is(res.response.status, 404, name);
    assertSpec('repoGetTag', res);
  }
  const empty = await repoFor(app, w.r, { auto_init: false });
  assert.is((await get('v1', w.r.owner.auth, pathOf(empty))).response.status, 404);
  assert.is((await get('p1', undefined, w.privPath)).response.status, 404);
  assert.is((await get('p1', w.r.outsider.auth, w.privPath)).response.status, 404);
  assert.is((await get('p1', w.r.reader.auth, w.privPath)).response.status, 200, 'a reader sees it');
});

test('403: a token without the repository scope', async () => {
  const res = await get('v1', await wrongScope(app, w.r.owner, false));
  assert.is(res.response.status, 403);
  assertSpec('repoGetTag', res);
});

test.run();
