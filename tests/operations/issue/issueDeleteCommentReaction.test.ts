import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editRepo, lockIssue, newComment, newIssue, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { commentReactions, issueReactions, reactionPairs } from '../../helpers/reactions.js';
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

test('200: the caller\'s reaction of that kind on that comment goes, nothing else', async () => {
  const i = await newIssue(app, pub, p.owner);
  const c = await newComment(app, pub, i.number, p.owner);
  await commentReactions.post(app, pub, c.id, p.reader.auth, 'heart');
  await commentReactions.post(app, pub, c.id, p.writer.auth, 'heart');
  await issueReactions.post(app, pub, i.number, p.reader.auth, 'heart');
  const r = await commentReactions.delete(app, pub, c.id, p.reader.auth, 'heart');
  assert.is(r.response.status, 200);
  assertSpec('issueDeleteCommentReaction', r);
  assert.equal(reactionPairs(await commentReactions.list(app, pub, c.id)), [`${p.writer.username}:heart`]);
  assert.equal(reactionPairs(await issueReactions.list(app, pub, i.number)), [`${p.reader.username}:heart`], 'the issue\'s stays');
  assert.is((await commentReactions.delete(app, pub, c.id, p.reader.auth, 'heart')).response.status, 200, 'again');
});

test('403 on a locked issue for a reader; 401; 404; 423', async () => {
  const i = await newIssue(app, pub, p.owner);
  const c = await newComment(app, pub, i.number, p.owner);
  await commentReactions.post(app, pub, c.id, p.reader.auth, 'heart');
  await lockIssue(app, i.id);
  const f = await commentReactions.delete(app, pub, c.id, p.reader.auth, 'heart');
  assert.is(f.response.status, 403);
  assertSpec('issueDeleteCommentReaction', f);
  assert.is((await commentReactions.delete(app, pub, c.id, undefined, 'heart')).response.status, 401);
  assertEmpty404(await commentReactions.delete(app, pub, 99_999_999, p.owner.auth, 'heart'));
  const priv = await sharedRepo(app, p, { private: true });
  const pi = await newIssue(app, priv, p.owner);
  const pc = await newComment(app, priv, pi.number, p.owner);
  assertEmpty404(await commentReactions.delete(app, priv, pc.id, p.outsider.auth, 'heart'));
  await editRepo(app, priv, { archived: true });
  const a = await commentReactions.delete(app, priv, pc.id, p.owner.auth, 'heart');
  assert.is(a.response.status, 423);
  assertSpec('issueDeleteCommentReaction', a);
});

test.run();
