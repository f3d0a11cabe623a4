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

test('200: the issue\'s own reactions, oldest first, paginated; comments\' reactions are not among them', async () => {
  const i = await newIssue(app, pub, p.owner);
  for (const [as, content] of [[p.owner, '+1'], [p.reader, 'heart'], [p.writer, 'eyes']] as const) {
    assert.is((await issueReactions.post(app, pub, i.number, as.auth, content)).response.status, 201);
  }
  const c = await newComment(app, pub, i.number, p.owner);
  assert.is((await commentReactions.post(app, pub, c.id, p.reader.auth, 'rocket')).response.status, 201);
  const all = await issueReactions.list(app, pub, i.number);
  assertSpec('issueGetIssueReactions', all);
  assert.equal(reactionPairs(all), [`${p.owner.username}:+1`, `${p.reader.username}:heart`, `${p.writer.username}:eyes`]);
  assert.is(all.response.headers.get('x-total-count'), '3');
  const second = await issueReactions.list(app, pub, i.number, undefined, { page: 2, limit: 2 });
  assert.equal(reactionPairs(second), [`${p.writer.username}:eyes`]);
  assert.is(second.response.headers.get('x-total-count'), '3');
  assert.ok(second.response.headers.get('link')?.includes('rel="prev"'));
  assert.equal(reactionPairs(await issueReactions.list(app, pub, (await newIssue(app, pub, p.owner)).number)), []);
});

test('deleting the issue takes its reactions', async () => {
  const i = await newIssue(app, pub, p.owner);
  await issueReactions.post(app, pub, i.number, p.reader.auth, 'heart');
  const del = await app.client(p.owner.auth).DELETE('/repos/{owner}/{repo}/issues/{index}', { params: { path: { ...pub.path, index: i.number } } });
  assert.is(del.response.status, 204);
  assertEmpty404(await issueReactions.list(app, pub, i.number));
});

test('404: no such issue; a private repository for an outsider and anonymous', async () => {
  assertEmpty404(await issueReactions.list(app, pub, 99_999));
  const priv = await sharedRepo(app, p, { private: true });
  const i = await newIssue(app, priv, p.owner);
  await issueReactions.post(app, priv, i.number, p.reader.auth, 'heart');
  assertEmpty404(await issueReactions.list(app, priv, i.number, p.outsider.auth));
  assertEmpty404(await issueReactions.list(app, priv, i.number));
  assert.equal(reactionPairs(await issueReactions.list(app, priv, i.number, p.reader.auth)), [`${p.reader.username}:heart`]);
});

test.run();
