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

const put = (target: Repo, auth?: string) => app.client(auth).PUT('/repos/{owner}/{repo}/subscription', { params: { path: target.path } });
const watchers = async (target: Repo) => (await app.client(p.owner.auth).GET('/repos/{owner}/{repo}', { params: { path: target.path } })).data!.watchers_count;

test('200: the watch (idempotent); counted once; the watcher is notified of new issues', async () => {
  const api = `${app.config.rootUrl}api/v1/repos/${repo.full_name}`;
  const res = await put(repo, p.outsider.auth);
  assert.is(res.response.status, 200);
  assertSpec('userCurrentPutSubscription', res);
  assert.equal({ ...res.data!, created_at: typeof res.data!.created_at }, {
    subscribed: true, ignored: false, reason: null, created_at: 'string', url: `${api}/subscription`, repository_url: api,
  });
  const again = await put(repo, p.outsider.auth);
  assert.equal(again.data, res.data, 'the same watch');
  assert.is(await watchers(repo), 2);
  await newIssue(app, repo, p.writer, { title: 'news' });
  assert.equal((await threadsOf(app, p.outsider)).map((t) => t.subject.title), ['news']);
  assert.is((await put(priv, p.reader.auth)).response.status, 200, 'a reader of a private repository');
  assert.is((await put(repo, await app.token(p.reader, ['write:repository']))).response.status, 200);
});

test('401, 403, 404', async () => {
  const anon = await put(repo);
  assert.is(anon.response.status, 401);
  assertSpec('userCurrentPutSubscription', anon);
  const scoped = await put(repo, await app.token(p.reader, ['read:repository']));
  assert.is(scoped.response.status, 403);
  assert.equal(scoped.error, { message: 'token does not have at least one of required scope(s): [write:repository]', url: swaggerOf(app) });
  assert.is((await put(priv, p.outsider.auth)).response.status, 404);
  assert.is(await watchers(priv), 2, 'the owner and the reader');
});

test.run();
