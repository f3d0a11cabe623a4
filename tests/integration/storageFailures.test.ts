// A repository folder that cannot be written (#32): every git write answers 503 with a plain message —
// not 500, not 409/422 with git's text — records nothing, the server goes on answering, and once the
// folder can be written again the same writes succeed (nothing was left half-done to stand in their way).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { OperationId } from '../../src/api/types.js';
import { eventsOf } from '../helpers/events.js';
import { b64 } from '../helpers/files.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { openPull, patch } from '../helpers/pulls.js';
import { numReleases } from '../helpers/releases.js';
import { actor, raw, repoFolder, userRepo, type Actor, type Repository } from '../helpers/repos.js';
import { assertSpecAnswer } from '../helpers/spec-check.js';
import { disk } from '../helpers/gitFixtures.js';
import { canFreeze, freeze } from '../helpers/storage.js';

let app: TestApp;
let alice: Actor;
let repo: Repository;
let dir: string;
let pull: number;
const logLines: string[] = [];

interface Write { op: OperationId; method: string; path: string; body?: unknown; ok: number }

/** The writes, each against the state the repository has before any of them (built once the README's blob id is known). */
function writes(readmeSha: string): Write[] {
  const p = `/repos/${repo.full_name}`;
  const patch = 'diff --git a/patched.txt b/patched.txt\nnew file mode 100644\n--- /dev/null\n+++ b/patched.txt\n@@ -0,0 +1 @@\n+patched\n';
  return [
    { op: 'repoCreateFile', method: 'POST', path: `${p}/contents/new.txt`, body: { content: b64('new'), message: 'add new.txt' }, ok: 201 },
    { op: 'repoUpdateFile', method: 'PUT', path: `${p}/contents/README.md`, body: { content: b64('changed'), sha: readmeSha, message: 'change' }, ok: 200 },
    { op: 'repoDeleteFile', method: 'DELETE', path: `${p}/contents/README.md`, body: { sha: readmeSha, message: 'remove' }, ok: 200 },
    { op: 'repoChangeFiles', method: 'POST', path: `${p}/contents`, body: { files: [{ operation: 'create', path: 'two.txt', content: b64('2') }], message: 'two' }, ok: 201 },
    { op: 'repoApplyDiffPatch', method: 'POST', path: `${p}/diffpatch`, body: { content: patch, message: 'patch' }, ok: 201 },
    { op: 'repoCreateBranch', method: 'POST', path: `${p}/branches`, body: { new_branch_name: 'feature', old_branch_name: 'main' }, ok: 201 },
    { op: 'repoDeleteBranch', method: 'DELETE', path: `${p}/branches/side`, ok: 204 },
    { op: 'repoCreateTag', method: 'POST', path: `${p}/tags`, body: { tag_name: 'v1', target: 'main' }, ok: 201 },
    { op: 'repoCreateTag', method: 'POST', path: `${p}/tags`, body: { tag_name: 'v2', target: 'main', message: 'annotated' }, ok: 201 },
    { op: 'repoCreateRelease', method: 'POST', path: `${p}/releases`, body: { tag_name: 'r1', target_commitish: 'main', name: 'first' }, ok: 201 },
    { op: 'repoMergePullRequest', method: 'POST', path: `${p}/pulls/${pull}/merge`, body: { Do: 'merge' }, ok: 200 },
    { op: 'repoCreateWikiPage', method: 'POST', path: `${p}/wiki/new`, body: { title: 'Second', content_base64: b64('two') }, ok: 201 },
  ];
}

const refsOf = (d: string) => disk.run(d, ['for-each-ref', '--format=%(refname) %(objectname)']);

test.before(async () => {
  app = await startApp({}, { logLines });
  alice = await actor(app);
  repo = await userRepo(app, alice, { name: 'frozen', auto_init: true });
  dir = repoFolder(app, alice.username, 'frozen');
  const side = await raw(app, 'POST', `/repos/${repo.full_name}/branches`, { body: JSON.stringify({ new_branch_name: 'side', old_branch_name: 'main' }), authorization: alice.auth });
  assert.is(side.response.status, 201, side.text);
  await patch(app, repo, alice, 'diff --git a/feat.txt b/feat.txt\nnew file mode 100644\n--- /dev/null\n+++ b/feat.txt\n@@ -0,0 +1 @@\n+feat\n', { newBranch: 'feat' });
  pull = (await openPull(app, repo, alice, 'feat')).number;
  const home = await raw(app, 'POST', `/repos/${repo.full_name}/wiki/new`, { body: JSON.stringify({ title: 'Home', content_base64: b64('home') }), authorization: alice.auth });
  assert.is(home.response.status, 201, home.text);
});
test.after(async () => {
  await app?.close();
});

test('every git write to a repository folder that cannot be written: 503, a plain message, nothing recorded; afterwards each succeeds', async () => {
  if (!canFreeze('tests/integration/storageFailures.test.ts')) return;
  const readme = await raw(app, 'GET', `/repos/${repo.full_name}/contents/README.md`, { authorization: alice.auth });
  const list = writes(readme.body.sha as string);
  const wiki = dir.replace(/\.git$/, '.wiki.git');
  const refsBefore = [await refsOf(dir), await refsOf(wiki)];
  const eventsBefore = (await eventsOf(app, repo.id)).kinds;
  const thawRepo = freeze(dir);
  let thawWiki = () => {};
  try {
    thawWiki = freeze(wiki);
    for (const w of list) {
      const res = await raw(app, w.method, w.path, { body: w.body === undefined ? undefined : JSON.stringify(w.body), authorization: alice.auth });
      const label = `${w.method} ${w.path} ${JSON.stringify(w.body ?? {}).slice(0, 60)}`;
      assert.is(res.response.status, 503, `${label}: ${res.text}`);
      assertSpecAnswer(w.op, 503, res.body);
      assert.equal(res.body, { message: 'the repository storage cannot be written at the moment; nothing was changed, try again later', url: `${app.config.rootUrl}api/swagger` }, label);
    }
    // The server is up, and reads of the frozen repository work.
    const read = await raw(app, 'GET', `/repos/${repo.full_name}/branches/main`, { authorization: alice.auth });
    assert.is(read.response.status, 200, read.text);
  } finally {
    thawRepo();
    thawWiki();
  }
  assert.equal([await refsOf(dir), await refsOf(wiki)], refsBefore, 'no ref moved, in the repository or its wiki');
  assert.equal((await eventsOf(app, repo.id)).kinds, eventsBefore, 'no event recorded');
  assert.is(await numReleases(app, repo.id), 0, 'no release row');
  const failures = logLines.map((l) => JSON.parse(l) as { msg: string; url?: string }).filter((e) => e.msg === 'request failed');
  assert.is(failures.length, list.length, 'each failure is in the error log for the operator');
  // Each write, now the folder can be written: nothing half-done stands in its way. The file writes are
  // sent in an order where each one's precondition (README.md's blob id) still holds.
  for (const w of [...list.slice(3), list[0]!, list[1]!]) {
    const res = await raw(app, w.method, w.path, { body: w.body === undefined ? undefined : JSON.stringify(w.body), authorization: alice.auth });
    assert.is(res.response.status, w.ok, `${w.method} ${w.path} after the thaw: ${res.text}`);
  }
  // Sound repositories (a merge leaves the unreferenced trees of its mergeability checks: not a fault).
  for (const d of [dir, wiki]) assert.is((await disk.run(d, ['fsck', '--strict', '--no-dangling', '--no-progress'])).trim(), '', d);
});

test.run();
