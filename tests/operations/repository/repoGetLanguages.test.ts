// GET /repos/{owner}/{repo}/languages (#38): bytes per language of the default branch, computed by the
// statistics job after each push to it (and a change of the default branch), read from storage.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { repoFor, roles, wrongScope, type Roles } from '../../helpers/gitFixtures.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { commitFiles, statsSettled } from '../../helpers/repoStats.js';
import { pathOf, type Repository } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let r: Roles;

test.before(async () => {
  app = await startApp({}, { repoStats: true });
  r = await roles(app);
});
test.after(async () => {
  await app.close();
});

const get = (target: Pick<Repository, 'full_name'>, authorization?: string) =>
  app.client(authorization).GET('/repos/{owner}/{repo}/languages', { params: { path: pathOf(target as Repository) } });

const goMain = 'package main\n\nfunc main() {\n\tprintln("hello")\n}\n';
const tsLib = 'export const answer: number = 42;\n';

/** A repository of r.owner with `files` committed through the API, its statistics computed. */
async function withFiles(files: Record<string, string>, body: Parameters<typeof repoFor>[2] = {}): Promise<Repository> {
  const repo = await repoFor(app, r, body);
  await statsSettled(app, repo.id, await commitFiles(app, repo, r.owner, files));
  return repo;
}

/** The answer's keys and values in order (the order is part of the answer: largest first). */
const entries = async (repo: Repository, authorization?: string) => {
  const res = await get(repo, authorization);
  assert.is(res.response.status, 200, JSON.stringify(res.error));
  assertSpec('repoGetLanguages', res);
  return Object.entries(JSON.parse(JSON.stringify(res.data)) as Record<string, number>);
};

test('200: bytes per language after a push, largest first; the repository JSON names the primary language', async () => {
  const repo = await withFiles({ 'main.go': goMain, 'lib/a.ts': tsLib, 'lib/b.tsx': 'export const B = () => <div />;\n', 'run': '#!/usr/bin/env python3\nprint(1)\n' });
  const ts = tsLib.length + 'export const B = () => <div />;\n'.length;
  const py = '#!/usr/bin/env python3\nprint(1)\n'.length;
  assert.equal(await entries(repo), [['TypeScript', ts], ['Go', goMain.length], ['Python', py]], 'TSX counts as TypeScript; a shebang names Python');
  const got = await app.client(r.owner.auth).GET('/repos/{owner}/{repo}', { params: { path: pathOf(repo) } });
  assert.is(got.data!.language, 'TypeScript');
  assert.match(got.data!.languages_url, new RegExp(`/api/v1/repos/${repo.full_name}/languages$`));
  // The next push moves the numbers: files removed and added.
  const sha = await commitFiles(app, repo, r.owner, { 'lib/a.ts': null, 'lib/b.tsx': null, 'more.py': 'print(3)\n'.repeat(10) });
  await statsSettled(app, repo.id, sha);
  assert.equal(await entries(repo), [['Python', py + 90], ['Go', goMain.length]]);
  const again = await app.client(r.owner.auth).GET('/repos/{owner}/{repo}', { params: { path: pathOf(repo) } });
  assert.is(again.data!.language, 'Python');
});

test('200: a file is judged by its own content: the same path holding another text, here or in another repository, is classified anew', async () => {
  // Classifications are remembered by path and blob: a new blob at a known path must not reuse the old answer.
  const py = '#!/usr/bin/env python3\nprint(1)\n';
  const rb = '#!/usr/bin/env ruby\nputs 1\n';
  const first = await withFiles({ 'tool': py, 'main.go': goMain });
  assert.equal(await entries(first), [['Go', goMain.length], ['Python', py.length]]);
  const other = await withFiles({ 'tool': rb, 'main.go': goMain });
  assert.equal(await entries(other), [['Go', goMain.length], ['Ruby', rb.length]]);
  // The same blob moved under vendor/ is left out (the path is part of what decides).
  const sha = await commitFiles(app, first, r.owner, { 'vendor/tool': py });
  await statsSettled(app, first.id, sha);
  assert.equal(await entries(first), [['Go', goMain.length], ['Python', py.length]]);
});

test('200: vendored, documentation, dot and configuration files are left out; data alone stands when nothing else is found', async () => {
  const repo = await withFiles({
    'main.go': goMain, 'vendor/dep/dep.go': goMain.repeat(5), 'node_modules/x/index.js': 'module.exports = 1;\n',
    'docs/guide.md': '# guide\n', 'docs/api.js': 'module.exports = 2;\n', '.eslintrc.js': 'module.exports = {};\n', 'config.json': '{"a": 1}\n',
    'settings.yaml': 'a: 1\n',
  });
  assert.equal(await entries(repo), [['Go', goMain.length]]);
  const onlyCss = await withFiles({ 'style.css': 'a { color: red; }\n', 'more.css': 'b { color: blue; }\n' });
  assert.equal(await entries(onlyCss), [['CSS', 'a { color: red; }\n'.length + 'b { color: blue; }\n'.length]], 'markup counts');
  const onlyData = await withFiles({ 'data.csv': 'a,b\n1,2\n' });
  assert.equal(await entries(onlyData), [['CSV', 8]], 'the first language left out stands alone when nothing else counts');
});

test('200: .gitattributes overrides (linguist-language, -vendored, -documentation, -generated, -detectable)', async () => {
  const repo = await withFiles({
    '.gitattributes': [
      '*.inc linguist-language=php', 'third_party/** linguist-vendored', 'vendor/** -linguist-vendored',
      'gen/** linguist-generated', 'manual/** linguist-documentation', '*.sql linguist-detectable', 'scripts/*.py -linguist-detectable',
      'docs/** -linguist-documentation',
    ].join('\n') + '\n',
    'a.inc': '<?php echo 1;\n', 'third_party/t.go': goMain, 'vendor/v.go': goMain, 'gen/g.go': goMain, 'manual/m.go': goMain,
    'schema.sql': 'select 1;\n', 'scripts/tool.py': 'print(1)\n', 'app.py': 'print(2)\n', 'docs/d.go': goMain,
  });
  assert.equal(await entries(repo), [
    ['Go', goMain.length * 2], // vendor/ kept by -linguist-vendored, docs/ by -linguist-documentation
    ['PHP', '<?php echo 1;\n'.length], // linguist-language, named in any letter case
    ['SQL', 'select 1;\n'.length], // data, counted because linguist-detectable
    ['Python', 'print(2)\n'.length],
  ].sort((a, b) => (b[1] as number) - (a[1] as number) || (a[0]! < b[0]! ? -1 : 1)));
});

test('200: the default branch changed: the numbers follow it', async () => {
  const repo = await withFiles({ 'main.go': goMain });
  await commitFiles(app, repo, r.owner, { 'main.go': null, 'lib.ts': tsLib }, 'other');
  await statsSettled(app, repo.id);
  assert.equal(await entries(repo), [['Go', goMain.length]], 'a push to another branch changes nothing');
  const res = await app.client(r.owner.auth).PATCH('/repos/{owner}/{repo}', { params: { path: pathOf(repo) }, body: { default_branch: 'other' } });
  assert.is(res.response.status, 200);
  await statsSettled(app, repo.id);
  assert.equal(await entries(repo), [['TypeScript', tsLib.length]]);
});

test('200 {}: an empty repository, and one of README files alone', async () => {
  const empty = await repoFor(app, r, { auto_init: false });
  await statsSettled(app, empty.id);
  assert.equal(await entries(empty), []);
  const readme = await repoFor(app, r);
  await statsSettled(app, readme.id);
  assert.equal(await entries(readme), []);
});

test('200: anyone for a public repository; readers of a private one; 404 for outsiders and anonymous callers', async () => {
  const pub = await withFiles({ 'main.go': goMain });
  for (const auth of [r.outsider.auth, undefined]) assert.equal(await entries(pub, auth), [['Go', goMain.length]]);
  const priv = await withFiles({ 'main.go': goMain }, { private: true });
  for (const who of [r.owner, r.writer, r.reader, r.admin]) assert.equal(await entries(priv, who.auth), [['Go', goMain.length]], who.username);
  for (const auth of [r.outsider.auth, undefined]) {
    const res = await get(priv, auth);
    assert.is(res.response.status, 404);
    assertSpec('repoGetLanguages', res);
  }
});

test('404: an unknown repository', async () => {
  const res = await get({ full_name: `${r.owner.username}/no-such-repository` });
  assert.is(res.response.status, 404);
  assertSpec('repoGetLanguages', res);
});

test('403: a token without the repository scope', async () => {
  const repo = await repoFor(app, r);
  const res = await get(repo, await wrongScope(app, r.owner, false));
  assert.is(res.response.status, 403);
  assertSpec('repoGetLanguages', res);
});

test.run();
