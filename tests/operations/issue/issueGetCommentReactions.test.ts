import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, newComment, newIssue, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
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

test('200: the comment\'s reactions, oldest first; not the issue\'s nor another comment\'s', async () => {
  const i = await newIssue(app, pub, p.owner);
  const c = await newComment(app, pub, i.number, p.owner);
  const other = await newComment(app, pub, i.number, p.owner);
  await commentReactions.post(app, pub, c.id, p.reader.auth, 'laugh');
  await commentReactions.post(app, pub, c.id, p.owner.auth, 'hooray');
  await commentReactions.post(app, pub, other.id, p.owner.auth, 'confused');
  await issueReactions.post(app, pub, i.number, p.owner.auth, '-1');
  const r = await commentReactions.list(app, pub, c.id);
  assertSpec('issueGetCommentReactions', r);
  assert.equal(reactionPairs(r), [`${p.reader.username}:laugh`, `${p.owner.username}:hooray`]);
  assert.equal(reactionPairs(await commentReactions.list(app, pub, (await newComment(app, pub, i.number, p.owner)).id)), []);
});

test('deleting the comment takes its reactions', async () => {
  const i = await newIssue(app, pub, p.owner);
  const c = await newComment(app, pub, i.number, p.owner);
  await commentReactions.post(app, pub, c.id, p.reader.auth, 'heart');
  const del = await app.client(p.owner.auth).DELETE('/repos/{owner}/{repo}/issues/comments/{id}', { params: { path: { ...pub.path, id: c.id } } });
  assert.is(del.response.status, 204);
  assertEmpty404(await commentReactions.list(app, pub, c.id));
});

test('404: no such comment; a comment of another repository; a private repository for an outsider', async () => {
  assertEmpty404(await commentReactions.list(app, pub, 99_999_999));
  const priv = await sharedRepo(app, p, { private: true });
  const i = await newIssue(app, priv, p.owner);
  const c = await newComment(app, priv, i.number, p.owner);
  assertEmpty404(await commentReactions.list(app, pub, c.id), 'through another repository');
  assertEmpty404(await commentReactions.list(app, priv, c.id, p.outsider.auth));
  assert.is((await commentReactions.list(app, priv, c.id, p.reader.auth)).response.status, 200);
});

test.run();
