// An owner's folder that cannot be written (#32): creating or forking a repository into it answers 503
// with a plain message, leaves no repository row behind, and succeeds once the folder can be written.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { OperationId } from '../../src/api/types.js';
import { attachmentDir, attachmentWorld, newComment, newIssue, uploadToComment, uploadToIssue } from '../helpers/attachments.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { actor, raw, repoFolder, userRepo, type Actor } from '../helpers/repos.js';
import { assertSpecAnswer } from '../helpers/spec-check.js';
import { canFreeze, freeze } from '../helpers/storage.js';

let app: TestApp;
let alice: Actor;
let bob: Actor;

test.before(async () => {
  app = await startApp();
  alice = await actor(app);
  bob = await actor(app);
  await userRepo(app, bob, { name: 'upstream', auto_init: true });
  // alice's folder exists (and holds a repository), so it is hers that is frozen, not the parent's.
  await userRepo(app, alice, { name: 'first', auto_init: true });
});
test.after(async () => {
  await app?.close();
});

const unavailable = { message: 'the repository storage cannot be written at the moment; nothing was changed, try again later' };

test("creating or forking a repository into an owner's folder that cannot be written: 503, no row, afterwards it works", async () => {
  if (!canFreeze('tests/integration/storageFailuresCreate.test.ts')) return;
  const ownerDir = dirname(repoFolder(app, alice.username, 'first'));
  mkdirSync(ownerDir, { recursive: true });
  const writes: Array<{ op: OperationId; method: string; path: string; body: unknown; ok: number; name: string }> = [
    { op: 'createCurrentUserRepo', method: 'POST', path: '/user/repos', body: { name: 'made', auto_init: true }, ok: 201, name: 'made' },
    { op: 'createCurrentUserRepo', method: 'POST', path: '/user/repos', body: { name: 'bare' }, ok: 201, name: 'bare' },
    { op: 'createFork', method: 'POST', path: `/repos/${bob.username}/upstream/forks`, body: {}, ok: 202, name: 'upstream' },
  ];
  const thaw = freeze(ownerDir);
  try {
    for (const w of writes) {
      const res = await raw(app, w.method, w.path, { body: JSON.stringify(w.body), authorization: alice.auth });
      assert.is(res.response.status, 503, `${w.method} ${w.path}: ${res.text}`);
      assertSpecAnswer(w.op, 503, res.body);
      assert.is((res.body as { message: string }).message, unavailable.message);
      const got = await raw(app, 'GET', `/repos/${alice.username}/${w.name}`, { authorization: alice.auth });
      assert.is(got.response.status, 404, `no repository row is left for ${w.name}`);
    }
  } finally {
    thaw();
  }
  for (const w of writes) {
    const res = await raw(app, w.method, w.path, { body: JSON.stringify(w.body), authorization: alice.auth });
    assert.is(res.response.status, w.ok, `${w.method} ${w.path} after the thaw: ${res.text}`);
  }
});

test('an upload to an issue or a comment in an attachment folder that cannot be written: 503, no attachment row, afterwards it works', async () => {
  if (!canFreeze('tests/integration/storageFailuresCreate.test.ts')) return;
  const w = await attachmentWorld(app);
  const issue = await newIssue(app, w, w.owner);
  const comment = await newComment(app, w, issue.number, w.owner);
  const folder = attachmentDir(app);
  mkdirSync(folder, { recursive: true });
  const thaw = freeze(folder);
  try {
    const res = await uploadToIssue(app, w, issue.number, { filename: 'notes.txt', content: 'notes' }, w.owner);
    assert.is(res.response.status, 503, JSON.stringify(res.error));
    assertSpecAnswer('issueCreateIssueAttachment', 503, res.error);
    const onComment = await uploadToComment(app, w, comment.id, { filename: 'notes.txt', content: 'notes' }, w.owner);
    assert.is(onComment.response.status, 503, JSON.stringify(onComment.error));
    assertSpecAnswer('issueCreateIssueCommentAttachment', 503, onComment.error);
  } finally {
    thaw();
  }
  const listed = await app.client(w.owner.auth).GET('/repos/{owner}/{repo}/issues/{index}/assets', { params: { path: { ...w.path, index: issue.number } } });
  assert.equal(listed.data, [], 'no attachment row is left');
  const again = await uploadToIssue(app, w, issue.number, { filename: 'notes.txt', content: 'notes' }, w.owner);
  assert.is(again.response.status, 201, JSON.stringify(again.error));
});

test.run();
