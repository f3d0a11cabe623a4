import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { newComment, newIssue, people, sharedRepo, type Issue, type People, type Repo } from '../../helpers/issues.js';
import { checkSubscription, setSubscription, setThread, threadsOf } from '../../helpers/notifications.js';

let app: TestApp;
let p: People;
let repo: Repo;
let issue: Issue;

test.before(async () => {
  app = await startApp();
  p = await people(app);
  repo = await sharedRepo(app, p);
  issue = await newIssue(app, repo, p.writer, { title: 'loud', body: `@${p.reader.username}` });
});
test.after(async () => {
  await app.close();
});

test('201 when it changes something, then 200: a watcher and a mentioned participant stop being notified', async () => {
  for (const who of [p.owner, p.reader]) {
    const res = await setSubscription(app, 'DELETE', repo, issue.number, who.username, who.auth);
    assert.equal([res.status, res.text], [201, ''], who.username);
    assert.is((await setSubscription(app, 'DELETE', repo, issue.number, who.username, who.auth)).status, 200, `${who.username} again`);
    const c = await checkSubscription(app, repo, issue.number, who.auth);
    assert.equal([c.data!.subscribed, c.data!.ignored], [false, true]);
  }
  // The reader has the issue's thread from the mention; a comment after unsubscribing must not move it.
  const mentioned = (await threadsOf(app, p.reader)).find((t) => t.subject.url.endsWith(`/issues/${issue.number}`));
  assert.ok(mentioned, 'the mention made a thread');
  // Read an hour ago: a notification would make it unread, newer, and point it at the comment.
  await setThread(app, mentioned!.id, 'read', new Date(Date.now() - 3_600_000));
  const before = await threadsOf(app, p.reader);
  const thread = before.find((t) => t.id === mentioned!.id);
  assert.is(thread!.subject.latest_comment_url, '', 'no comment yet');
  assert.is(thread!.unread, false);
  await newComment(app, repo, issue.number, p.writer, 'anyone?');
  const after = await threadsOf(app, p.reader);
  assert.is(after.length, before.length, 'no new thread');
  const same = after.find((t) => t.id === thread!.id)!;
  assert.is(same.subject.latest_comment_url, '', 'the thread did not move to the new comment');
  assert.is(same.updated_at, thread!.updated_at, 'nor was it touched');
  assert.is(same.unread, thread!.unread);
  assert.is((await setSubscription(app, 'DELETE', repo, issue.number, p.outsider.username, p.outsider.auth)).status, 200, 'never subscribed');
});

test('403 for another user unless repository or site admin; 404 unknown user; 401', async () => {
  assert.is((await setSubscription(app, 'DELETE', repo, issue.number, p.writer.username, p.reader.auth)).status, 403);
  assert.is((await setSubscription(app, 'DELETE', repo, issue.number, p.writer.username, p.owner.auth)).status, 201);
  assert.is((await setSubscription(app, 'DELETE', repo, issue.number, 'nobody-here', p.owner.auth)).status, 404);
  assert.is((await setSubscription(app, 'DELETE', repo, issue.number, p.writer.username)).status, 401);
});

test.run();
