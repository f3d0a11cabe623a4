import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { newIssue, people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { threadsOf } from '../../helpers/notifications.js';
import { swaggerOf } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let repo: Repo;
let priv: Repo;

test.before(async () => {
  app = await startApp();
  p = await people(app);
  [repo, priv] = await Promise.all([sharedRepo(app, p), sharedRepo(app, p, { private: true })]);
});
test.after(async () => {
  await app.close();
});

const del = (target: Repo, auth?: string) => app.client(auth).DELETE('/repos/{owner}/{repo}/subscription', { params: { path: target.path } });
const watchers = async (target: Repo) => (await app.client(p.owner.auth).GET('/repos/{owner}/{repo}', { params: { path: target.path } })).data!.watchers_count;

test('204: the creator stops watching (idempotent); no more threads for new issues', async () => {
  const res = await del(repo, p.owner.auth);
  assert.is(res.response.status, 204);
  assertSpec('userCurrentDeleteSubscription', res);
  assert.is(await watchers(repo), 0);
  assert.is((await del(repo, p.owner.auth)).response.status, 204, 'again');
  assert.is(await watchers(repo), 0, 'never below zero');
  await newIssue(app, repo, p.writer, { title: 'unseen' });
  assert.equal(await threadsOf(app, p.owner), []);
  assert.is((await del(repo, p.outsider.auth)).response.status, 204, 'someone who never watched');
});

test('401, 403, 404', async () => {
  assert.is((await del(repo)).response.status, 401);
  const scoped = await del(repo, await app.token(p.owner, ['read:repository']));
  assert.is(scoped.response.status, 403);
  assert.equal(scoped.error, { message: 'token does not have at least one of required scope(s): [write:repository]', url: swaggerOf(app) });
  assert.is((await del(priv, p.outsider.auth)).response.status, 404);
  assert.is(await watchers(priv), 1);
});

test.run();
