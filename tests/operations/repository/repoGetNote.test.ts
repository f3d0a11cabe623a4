import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { components } from '../../../generated/openapi.js';
import { contentsWorld, type ContentsWorld } from '../../helpers/contents.js';
import { disk, wrongScope } from '../../helpers/gitFixtures.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { pathOf, swaggerOf, type Repository } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

type Note = components['schemas']['Note'];

let app: TestApp;
let w: ContentsWorld;

test.before(async () => {
  app = await startApp();
  w = await contentsWorld(app);
});
test.after(async () => {
  await app.close();
});

const get = (target: Repository, sha: string, query: { files?: boolean; verification?: boolean } = {}, authorization?: string) =>
  app.client(authorization).GET('/repos/{owner}/{repo}/git/notes/{sha}', { params: { path: { ...pathOf(target), sha }, query } });

test('200: the note of a commit named by id, short id, branch or tag, with the notes commit that wrote it', async () => {
  await disk.run(w.dir, ['tag', 'noted', w.tip]);
  for (const sha of [w.tip, w.tip.slice(0, 10), 'main', 'noted']) {
    const res = await get(w.repo, sha);
    assert.is(res.response.status, 200, sha);
    assertSpec('repoGetNote', res);
    const note = res.data as Note;
    assert.is(note.message, 'reviewed by the release team\n');
    assert.is(note.commit.sha, w.notesCommit);
    assert.is(note.commit.commit.author.name, 'Noter');
  }
  const lean = (await get(w.repo, w.tip, { files: false, verification: false })).data as Note;
  assert.is(lean.commit.files, null);
});

test('200: a note in a fanned-out notes tree; an edited note names the commit that edited it', async () => {
  const env = { GIT_AUTHOR_NAME: 'Noter', GIT_AUTHOR_EMAIL: 'noter@example.com', GIT_COMMITTER_NAME: 'Noter', GIT_COMMITTER_EMAIL: 'noter@example.com' };
  await disk.run(w.dir, ['notes', 'add', '-m', 'first commit note', w.first], { env });
  const before = (await disk.rev(w.dir, 'refs/notes/commits'))!;
  // Rewrite the notes tree with the note at ab/cdef… (git reads both layouts; large notes trees use it).
  const blob = (await disk.run(w.dir, ['rev-parse', `${before}:${w.first}`])).trim();
  const inner = (await disk.run(w.dir, ['mktree'], { input: `100644 blob ${blob}\t${w.first.slice(2)}\n` })).trim();
  const tipBlob = (await disk.run(w.dir, ['rev-parse', `${before}:${w.tip}`])).trim();
  const top = (await disk.run(w.dir, ['mktree'], { input: `040000 tree ${inner}\t${w.first.slice(0, 2)}\n100644 blob ${tipBlob}\t${w.tip}\n` })).trim();
  const fanned = (await disk.run(w.dir, ['commit-tree', top, '-p', before, '-m', 'fan out'], { env })).trim();
  await disk.run(w.dir, ['update-ref', 'refs/notes/commits', fanned]);
  const res = await get(w.repo, w.first);
  assert.is(res.response.status, 200);
  assert.is((res.data as Note).message, 'first commit note\n');
  assert.is((res.data as Note).commit.sha, fanned, 'the commit that last changed the note\'s path');
  assert.is(((await get(w.repo, w.tip)).data as Note).commit.sha, w.notesCommit, 'the tip\'s note was not changed since');
});

test('200: readers of a private repository; 404 for outsiders and anonymous callers', async () => {
  const privDir = (await import('../../helpers/gitFixtures.js')).dirOf(app, w.priv);
  const tip = (await disk.tip(privDir, 'main'))!;
  await disk.run(privDir, ['notes', 'add', '-m', 'private note', tip], { env: { GIT_COMMITTER_NAME: 'N', GIT_COMMITTER_EMAIL: 'n@example.com', GIT_AUTHOR_NAME: 'N', GIT_AUTHOR_EMAIL: 'n@example.com' } });
  for (const who of [w.r.owner, w.r.writer, w.r.reader, w.r.admin]) {
    const res = await get(w.priv, tip, {}, who.auth);
    assert.is(res.response.status, 200, who.username);
    assert.is((res.data as Note).message, 'private note\n');
  }
  for (const auth of [w.r.outsider.auth, undefined]) assert.is((await get(w.priv, tip, {}, auth)).response.status, 404);
});

test('404: a commit without a note, an unknown commit or ref, a repository without notes, an empty repository', async () => {
  const other = (await disk.commit(w.dir, 'other', { 'o.txt': 'o\n' }, { from: 'main' }));
  for (const [target, sha] of [[w.repo, other], [w.repo, 'f'.repeat(40)], [w.repo, 'nope'], [w.priv, (await disk.tip(w.dir, 'dev'))!], [w.empty, 'main']] as const) {
    const res = await get(target, sha);
    assert.is(res.response.status, 404, sha);
    assertSpec('repoGetNote', res);
  }
});

test('422: no valid ref or sha', async () => {
  const res = await get(w.repo, 'a..b');
  assert.is(res.response.status, 422);
  assertSpec('repoGetNote', res);
  assert.equal(res.error, { message: 'no valid ref or sha: a..b', url: swaggerOf(app) });
});

test('403: a token without the repository scope', async () => {
  const res = await get(w.repo, w.tip, {}, await wrongScope(app, w.r.owner, false));
  assert.is(res.response.status, 403);
  assertSpec('repoGetNote', res);
});

test.run();
