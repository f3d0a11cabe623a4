import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { contentsWorld, type ContentsWorld } from '../../helpers/contents.js';
import { disk, dirOf, fetchRaw, repoFor, wrongScope } from '../../helpers/gitFixtures.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { pathOf, type Repository } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let w: ContentsWorld;

test.before(async () => {
  app = await startApp();
  w = await contentsWorld(app);
});
test.after(async () => {
  await app.close();
});

const get = (target: Repository, filepath: string, query: { ref?: string } = {}, authorization?: string) =>
  app.client(authorization).GET('/repos/{owner}/{repo}/editorconfig/{filepath}', { params: { path: { ...pathOf(target), filepath }, query } });

test('200: the definitions for a file: matching sections in order, later ones winning, tab completed, unset removed', async () => {
  const res = await get(w.repo, 'main.ts');
  assert.is(res.response.status, 200);
  assertSpec('repoGetEditorConfig', res);
  assert.equal(res.data, { indent_style: 'space', indent_size: 2, tab_width: 2, insert_final_newline: true });
  const go = await get(w.repo, 'docs/sub/inner.go');
  assert.equal(go.data, { indent_style: 'tab', indent_size: 8, tab_width: 8, insert_final_newline: true });
  const md = await get(w.repo, 'docs/guide.md');
  assert.equal(md.data, { indent_style: 'space', indent_size: 2, tab_width: 2, insert_final_newline: true, trim_trailing_whitespace: false });
  assert.equal((await get(w.repo, 'README.md')).data, { indent_style: 'space', indent_size: 2, tab_width: 2, insert_final_newline: true }, '`docs/**.md` is anchored at the root');
  const literal = await fetchRaw(app, `/repos/${w.repo.full_name}/editorconfig/docs/guide.md`);
  assert.equal(JSON.parse(literal.bytes.toString()), md.data, 'the path may contain literal slashes');
  assert.equal((await get(w.repo, 'any.ts', { ref: 'dev' })).data, { indent_size: 4, tab_width: 4 }, 'ref: the branch\'s .editorconfig');
});

test('200: {} when no section applies to the file', async () => {
  const only = await repoFor(app, w.r);
  await disk.commit(dirOf(app, only), 'main', { '.editorconfig': '[*.py]\nindent_size = 4\n' });
  const res = await get(only, 'a.go');
  assert.is(res.response.status, 200);
  assert.equal(res.data, {});
  assert.equal((await get(only, 'pkg/a.py')).data, { indent_size: 4, tab_width: 4 });
});

test('200: readers of a private repository; 404 for outsiders and anonymous callers', async () => {
  for (const who of [w.r.owner, w.r.writer, w.r.reader, w.r.admin]) assert.is((await get(w.priv, 'x.ts', {}, who.auth)).response.status, 200, who.username);
  for (const auth of [w.r.outsider.auth, undefined]) assert.is((await get(w.priv, 'x.ts', {}, auth)).response.status, 404);
});

test('404: no .editorconfig (or not at that ref), an unknown ref, an empty repository, `..`', async () => {
  const plain = await repoFor(app, w.r);
  for (const [target, filepath, query] of [
    [plain, 'README.md', {}], [w.repo, 'x.ts', { ref: w.first }], [w.repo, 'x.ts', { ref: 'nope' }],
    [w.empty, 'x.ts', {}], [w.repo, 'docs/../x.ts', {}],
  ] as const) {
    const res = await get(target, filepath, query);
    assert.is(res.response.status, 404, `${filepath} ${JSON.stringify(query)}`);
    assertSpec('repoGetEditorConfig', res);
  }
});

test('403: a token without the repository scope', async () => {
  const res = await get(w.repo, 'x.ts', {}, await wrongScope(app, w.r.owner, false));
  assert.is(res.response.status, 403);
  assertSpec('repoGetEditorConfig', res);
});

test.run();
