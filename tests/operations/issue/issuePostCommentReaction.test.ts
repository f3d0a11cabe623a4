import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editRepo, lockIssue, newComment, newIssue, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { block, commentReactions, reactionPairs } from '../../helpers/reactions.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let pub: Repo;

test.before(async () => {
  app = await startApp();
  p = await people(app);
  pub = await sharedRepo(app, p);
});
test.after(async () => {
  await app.close();
});

test('201 new, 200 existing', async () => {
  const i = await newIssue(app, pub, p.owner);
  const c = await newComment(app, pub, i.number, p.writer);
  const r = await commentReactions.post(app, pub, c.id, p.outsider.auth, 'rocket');
  assert.is(r.response.status, 201);
  assertSpec('issuePostCommentReaction', r);
  assert.is(r.data!.user.login, p.outsider.username);
  const again = await commentReactions.post(app, pub, c.id, p.outsider.auth, 'rocket');
  assert.is(again.response.status, 200);
  assertSpec('issuePostCommentReaction', again);
  assert.equal(reactionPairs(await commentReactions.list(app, pub, c.id)), [`${p.outsider.username}:rocket`]);
});

test('403: not an allowed reaction; a reader on a locked issue; blocked by the comment\'s poster', async () => {
  const i = await newIssue(app, pub, p.owner);
  const c = await newComment(app, pub, i.number, p.writer);
  const bad = await commentReactions.post(app, pub, c.id, p.reader.auth, 'smile');
  assert.is(bad.response.status, 403);
  assertSpec('issuePostCommentReaction', bad);
  await block(app, p.writer.id, p.outsider.id);
  assert.is((await commentReactions.post(app, pub, c.id, p.outsider.auth, 'heart')).response.status, 403, 'blocked');
  await lockIssue(app, i.id);
  assert.is((await commentReactions.post(app, pub, c.id, p.reader.auth, 'heart')).response.status, 403, 'locked');
  assert.is((await commentReactions.post(app, pub, c.id, p.writer.auth, 'heart')).response.status, 201, 'a writer on a locked issue');
  assert.equal(reactionPairs(await commentReactions.list(app, pub, c.id)), [`${p.writer.username}:heart`]);
});

test('401, 404 (no comment; another repository\'s), 423', async () => {
  const i = await newIssue(app, pub, p.owner);
  const c = await newComment(app, pub, i.number, p.owner);
  assert.is((await commentReactions.post(app, pub, c.id, undefined, 'heart')).response.status, 401);
  assertEmpty404(await commentReactions.post(app, pub, 99_999_999, p.owner.auth, 'heart'));
  const priv = await sharedRepo(app, p, { private: true });
  const pi = await newIssue(app, priv, p.owner);
  const pc = await newComment(app, priv, pi.number, p.owner);
  assertEmpty404(await commentReactions.post(app, pub, pc.id, p.owner.auth, 'heart'), 'through another repository');
  assertEmpty404(await commentReactions.post(app, priv, pc.id, p.outsider.auth, 'heart'));
  await editRepo(app, priv, { archived: true });
  const a = await commentReactions.post(app, priv, pc.id, p.owner.auth, 'heart');
  assert.is(a.response.status, 423);
  assertSpec('issuePostCommentReaction', a);
});

test.run();
