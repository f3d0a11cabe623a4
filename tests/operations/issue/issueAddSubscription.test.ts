import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { newComment, newIssue, people, sharedRepo, type Issue, type People, type Repo } from '../../helpers/issues.js';
import { checkSubscription, setSubscription, threadsOf } from '../../helpers/notifications.js';
import { swaggerOf } from '../../helpers/repos.js';

let app: TestApp;
let p: People;
let repo: Repo;
let priv: Repo;
let issue: Issue;
let secret: Issue;

test.before(async () => {
  app = await startApp();
  p = await people(app);
  [repo, priv] = await Promise.all([sharedRepo(app, p), sharedRepo(app, p, { private: true })]);
  issue = await newIssue(app, repo, p.writer, { title: 'follow me' });
  secret = await newIssue(app, priv, p.writer, { title: 'secret' });
});
test.after(async () => {
  await app.close();
});

const subscribers = async () => (await app.client().GET('/repos/{owner}/{repo}/issues/{index}/subscriptions', {
  params: { path: { ...repo.path, index: issue.number } },
})).data!.map((u) => u.login);

test('201 when new, then 200; an empty body; the subscriber is listed and notified', async () => {
  const res = await setSubscription(app, 'PUT', repo, issue.number, p.outsider.username, p.outsider.auth);
  assert.equal([res.status, res.text], [201, '']);
  assert.equal([(await setSubscription(app, 'PUT', repo, issue.number, p.outsider.username, p.outsider.auth)).status], [200]);
  assert.equal(await subscribers(), [p.outsider.username]);
  assert.is((await checkSubscription(app, repo, issue.number, p.outsider.auth)).data!.subscribed, true);
  await newComment(app, repo, issue.number, p.writer, 'hello subscribers');
  assert.equal((await threadsOf(app, p.outsider)).map((t) => t.subject.title), ['follow me']);
});

test('200: someone already following as poster or watcher is subscribed already: nothing written', async () => {
  for (const who of [p.writer, p.owner]) {
    const res = await setSubscription(app, 'PUT', repo, issue.number, who.username, who.auth);
    assert.equal([res.status, res.text], [200, ''], who.username);
  }
  assert.equal(await subscribers(), [p.outsider.username]);
});

test('201: the repository\'s owner and a site admin may subscribe another user; others may not (403)', async () => {
  const other = await newIssue(app, repo, p.writer, { title: 'other' });
  await app.client(p.owner.auth).DELETE('/repos/{owner}/{repo}/subscription', { params: { path: repo.path } });
  assert.is((await setSubscription(app, 'PUT', repo, other.number, p.reader.username, p.owner.auth)).status, 201);
  assert.is((await setSubscription(app, 'PUT', repo, other.number, p.owner.username, p.admin.auth)).status, 201);
  for (const who of [p.writer, p.outsider]) {
    const res = await setSubscription(app, 'PUT', repo, other.number, p.outsider.username === who.username ? p.reader.username : p.outsider.username, who.auth);
    assert.is(res.status, 403, who.username);
    assert.equal(JSON.parse(res.text).url, swaggerOf(app));
  }
});

test('404: an unknown user or issue, a user who cannot read it, an invisible repository', async () => {
  assert.is((await setSubscription(app, 'PUT', repo, issue.number, 'no-such-user', p.owner.auth)).status, 404);
  assert.is((await setSubscription(app, 'PUT', repo, 999, p.owner.username, p.owner.auth)).status, 404);
  assert.is((await setSubscription(app, 'PUT', priv, secret.number, p.outsider.username, p.owner.auth)).status, 404);
  assert.is((await setSubscription(app, 'PUT', priv, secret.number, p.outsider.username, p.outsider.auth)).status, 404);
});

test('401, 403 scope, 422', async () => {
  assert.is((await setSubscription(app, 'PUT', repo, issue.number, p.reader.username)).status, 401);
  const scoped = await setSubscription(app, 'PUT', repo, issue.number, p.reader.username, await app.token(p.reader, ['read:issue']));
  assert.is(scoped.status, 403);
  assert.equal(JSON.parse(scoped.text).message, 'token does not have at least one of required scope(s): [write:issue]');
  assert.is((await setSubscription(app, 'PUT', repo, 'x' as unknown as number, p.reader.username, p.reader.auth)).status, 422);
});

test.run();
