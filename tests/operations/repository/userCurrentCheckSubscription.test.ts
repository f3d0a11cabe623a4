import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { watch } from '../../helpers/notifications.js';
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

const check = (target: Repo, auth?: string) => app.client(auth).GET('/repos/{owner}/{repo}/subscription', { params: { path: target.path } });

test('200 for a watcher (the creator watches from the start); 404 for someone who does not watch', async () => {
  const own = await check(repo, p.owner.auth);
  assert.is(own.response.status, 200);
  assertSpec('userCurrentCheckSubscription', own);
  assert.equal([own.data!.subscribed, own.data!.ignored, own.data!.reason], [true, false, null]);
  const not = await check(repo, p.reader.auth);
  assert.is(not.response.status, 404);
  assertSpec('userCurrentCheckSubscription', not);
  await watch(app, p.reader, repo.path);
  const now = await check(repo, p.reader.auth);
  assert.is(now.response.status, 200);
  assert.ok(Date.parse(now.data!.created_at) >= Date.parse(own.data!.created_at));
});

test('401, 403, 404', async () => {
  assert.is((await check(repo)).response.status, 401);
  const scoped = await check(repo, await app.token(p.owner, ['read:issue']));
  assert.is(scoped.response.status, 403);
  assert.equal(scoped.error, { message: 'token does not have at least one of required scope(s): [read:repository]', url: swaggerOf(app) });
  assert.is((await check(priv, p.outsider.auth)).response.status, 404);
});

test.run();
