import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { newComment, newIssue, people, sharedRepo, type Issue, type People, type Repo } from '../../helpers/issues.js';
import { checkSubscription, watch } from '../../helpers/notifications.js';
import { actor, swaggerOf, type Actor } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let repo: Repo;
let priv: Repo;
let issue: Issue;
let commenter: Actor;
let watcher: Actor;

test.before(async () => {
  app = await startApp();
  p = await people(app);
  [commenter, watcher] = await Promise.all([actor(app), actor(app)]);
  [repo, priv] = await Promise.all([sharedRepo(app, p), sharedRepo(app, p, { private: true })]);
  issue = await newIssue(app, repo, p.writer, { title: 'who follows', body: `@${p.reader.username}`, assignees: [p.admin.username] });
  await newComment(app, repo, issue.number, commenter, 'me too');
  await watch(app, watcher, repo.path);
});
test.after(async () => {
  await app.close();
});

test('200: poster, assignee, commenter, mentioned user and watchers are subscribed; anyone else is not', async () => {
  const api = `${app.config.rootUrl}api/v1/repos/${repo.full_name}`;
  for (const who of [p.writer, p.admin, commenter, p.reader, watcher, p.owner]) {
    const res = await checkSubscription(app, repo, issue.number, who.auth);
    assert.is(res.response.status, 200, who.username);
    assertSpec('issueCheckSubscription', res);
    assert.equal({ ...res.data!, created_at: undefined }, {
      subscribed: true, ignored: false, reason: null, created_at: undefined, url: `${api}/issues/${issue.number}/subscriptions`, repository_url: api,
    }, who.username);
  }
  const no = await checkSubscription(app, repo, issue.number, p.outsider.auth);
  assert.equal([no.data!.subscribed, no.data!.ignored], [false, true]);
});

test('401, 403, 404, 422', async () => {
  assert.is((await checkSubscription(app, repo, issue.number)).response.status, 401);
  const scoped = await checkSubscription(app, repo, issue.number, await app.token(p.reader, ['read:repository']));
  assert.is(scoped.response.status, 403);
  assert.equal(scoped.error, { message: 'token does not have at least one of required scope(s): [read:issue]', url: swaggerOf(app) });
  assert.is((await checkSubscription(app, repo, 999, p.reader.auth)).response.status, 404);
  assert.is((await checkSubscription(app, priv, 1, p.outsider.auth)).response.status, 404);
  assert.is((await checkSubscription(app, repo, 'x' as unknown as number, p.reader.auth)).response.status, 422);
});

test.run();
