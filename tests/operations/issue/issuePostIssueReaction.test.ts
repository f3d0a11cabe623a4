import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertEmpty404, editRepo, lockIssue, newIssue, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { actor } from '../../helpers/repos.js';
import { block, issueReactions, reactionPairs } from '../../helpers/reactions.js';
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

test('201 new, 200 when it exists (one per user and kind); an outsider of a public repository reacts too', async () => {
  const i = await newIssue(app, pub, p.owner);
  const r = await issueReactions.post(app, pub, i.number, p.reader.auth, 'heart');
  assert.is(r.response.status, 201);
  assertSpec('issuePostIssueReaction', r);
  assert.is(r.data!.content, 'heart');
  assert.is(r.data!.user.login, p.reader.username);
  const again = await issueReactions.post(app, pub, i.number, p.reader.auth, 'heart');
  assert.is(again.response.status, 200);
  assertSpec('issuePostIssueReaction', again);
  assert.is(again.data!.created_at, r.data!.created_at, 'the existing reaction');
  assert.is((await issueReactions.post(app, pub, i.number, p.reader.auth, '+1')).response.status, 201, 'another kind');
  assert.is((await issueReactions.post(app, pub, i.number, p.outsider.auth, 'heart')).response.status, 201);
  assert.equal(reactionPairs(await issueReactions.list(app, pub, i.number)), [`${p.reader.username}:heart`, `${p.reader.username}:+1`, `${p.outsider.username}:heart`]);
});

test('403: a reaction Gitea does not allow; a reader on a locked issue (a writer may); a caller blocked by the poster or the owner', async () => {
  const i = await newIssue(app, pub, p.writer);
  for (const content of ['thumbsup', '', 'HEART']) {
    const r = await issueReactions.post(app, pub, i.number, p.reader.auth, content);
    assert.is(r.response.status, 403, content);
    assertSpec('issuePostIssueReaction', r);
  }
  const locked = await newIssue(app, pub, p.owner);
  await lockIssue(app, locked.id);
  assert.is((await issueReactions.post(app, pub, locked.number, p.reader.auth, 'eyes')).response.status, 403);
  assert.is((await issueReactions.post(app, pub, locked.number, p.writer.auth, 'eyes')).response.status, 201);

  const blockedByPoster = await newIssue(app, pub, p.writer);
  await block(app, p.writer.id, p.outsider.id);
  assert.is((await issueReactions.post(app, pub, blockedByPoster.number, p.outsider.auth, 'laugh')).response.status, 403, 'blocked by the poster');
  const own = await sharedRepo(app, p);
  const ofOwner = await newIssue(app, own, p.reader);
  const stranger = await actor(app);
  await block(app, p.owner.id, stranger.id);
  assert.is((await issueReactions.post(app, own, ofOwner.number, stranger.auth, 'laugh')).response.status, 403, 'blocked by the owner');
  assert.equal(reactionPairs(await issueReactions.list(app, own, ofOwner.number)), []);
});

test('401, 404 (no issue; a private repository for an outsider), 422 (no content), 423 archived', async () => {
  const i = await newIssue(app, pub, p.owner);
  assert.is((await issueReactions.post(app, pub, i.number, undefined, 'heart')).response.status, 401);
  assertEmpty404(await issueReactions.post(app, pub, 99_999, p.owner.auth, 'heart'));
  const priv = await sharedRepo(app, p, { private: true });
  const pi = await newIssue(app, priv, p.owner);
  assertEmpty404(await issueReactions.post(app, priv, pi.number, p.outsider.auth, 'heart'));
  const bad = await app.client(p.owner.auth).POST('/repos/{owner}/{repo}/issues/{index}/reactions', { params: { path: { ...priv.path, index: pi.number } }, body: {} as never });
  assert.is(bad.response.status, 422);
  await editRepo(app, priv, { archived: true });
  const a = await issueReactions.post(app, priv, pi.number, p.owner.auth, 'heart');
  assert.is(a.response.status, 423);
  assertSpec('issuePostIssueReaction', a);
});

test.run();
