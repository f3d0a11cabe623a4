import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editRepo, lockIssue, newIssue, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { issueReactions, reactionPairs } from '../../helpers/reactions.js';
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

test('200: only the caller\'s reaction of that kind goes; again, or none at all, is 200 too', async () => {
  const i = await newIssue(app, pub, p.owner);
  await issueReactions.post(app, pub, i.number, p.reader.auth, 'heart');
  await issueReactions.post(app, pub, i.number, p.reader.auth, '+1');
  await issueReactions.post(app, pub, i.number, p.writer.auth, 'heart');
  const r = await issueReactions.delete(app, pub, i.number, p.reader.auth, 'heart');
  assert.is(r.response.status, 200);
  assertSpec('issueDeleteIssueReaction', r);
  assert.equal(reactionPairs(await issueReactions.list(app, pub, i.number)), [`${p.reader.username}:+1`, `${p.writer.username}:heart`]);
  assert.is((await issueReactions.delete(app, pub, i.number, p.reader.auth, 'heart')).response.status, 200, 'again');
  assert.is((await issueReactions.delete(app, pub, i.number, p.outsider.auth, 'whatever')).response.status, 200, 'none');
  assert.is((await issueReactions.post(app, pub, i.number, p.reader.auth, 'heart')).response.status, 201, 'it can be added again');
});

test('403: a reader on a locked issue; a writer may', async () => {
  const i = await newIssue(app, pub, p.owner);
  await issueReactions.post(app, pub, i.number, p.reader.auth, 'heart');
  await issueReactions.post(app, pub, i.number, p.writer.auth, 'heart');
  await lockIssue(app, i.id);
  const r = await issueReactions.delete(app, pub, i.number, p.reader.auth, 'heart');
  assert.is(r.response.status, 403);
  assertSpec('issueDeleteIssueReaction', r);
  assert.is((await issueReactions.delete(app, pub, i.number, p.writer.auth, 'heart')).response.status, 200);
  assert.equal(reactionPairs(await issueReactions.list(app, pub, i.number)), [`${p.reader.username}:heart`]);
});

test('401, 404, 423', async () => {
  const i = await newIssue(app, pub, p.owner);
  assert.is((await issueReactions.delete(app, pub, i.number, undefined, 'heart')).response.status, 401);
  assertEmpty404(await issueReactions.delete(app, pub, 99_999, p.owner.auth, 'heart'));
  const priv = await sharedRepo(app, p, { private: true });
  const pi = await newIssue(app, priv, p.owner);
  await issueReactions.post(app, priv, pi.number, p.owner.auth, 'heart');
  assertEmpty404(await issueReactions.delete(app, priv, pi.number, p.outsider.auth, 'heart'));
  await editRepo(app, priv, { archived: true });
  const a = await issueReactions.delete(app, priv, pi.number, p.owner.auth, 'heart');
  assert.is(a.response.status, 423);
  assertSpec('issueDeleteIssueReaction', a);
});

test.run();
