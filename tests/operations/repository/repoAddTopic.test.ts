import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { repoOf, setTopics } from '../../helpers/forks.js';
import { people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
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
  await setTopics(app, p.owner, repo.path, ['middle']);
});
test.after(async () => {
  await app.close();
});

const add = (target: Repo, topic: string, auth: string | null = p.owner.auth) =>
  app.client(auth ?? undefined).PUT('/repos/{owner}/{repo}/topics/{topic}', { params: { path: { ...target.path, topic } } });

test('204: lower-cased, kept sorted; adding one the repository has changes nothing', async () => {
  const res = await add(repo, 'Zoo');
  assert.is(res.response.status, 204);
  assertSpec('repoAddTopic', res);
  assert.is((await add(repo, 'alpha', p.admin.auth)).response.status, 204);
  assert.is((await add(repo, 'zoo')).response.status, 204);
  assert.equal((await repoOf(app, p.owner, repo.path)).topics, ['alpha', 'middle', 'zoo']);
});

test('422: an invalid name; the 26th topic, also when racing for the 25th place', async () => {
  const bad = await add(repo, '-x');
  assert.is(bad.response.status, 422);
  assertSpec('repoAddTopic', bad);
  assert.equal(bad.error, { message: 'Topic name is invalid: -x', url: swaggerOf(app) });
  await setTopics(app, p.owner, repo.path, Array.from({ length: 24 }, (_, i) => `t${i}`));
  const racing = await Promise.all([add(repo, 'one'), add(repo, 'two'), add(repo, 'three')]);
  assert.equal(racing.map((r) => r.response.status).sort(), [204, 422, 422]);
  const full = await add(repo, 'more');
  assert.equal(full.error, { message: 'Exceeding maximum allowed topics per repo.', url: swaggerOf(app) });
  assert.is((await repoOf(app, p.owner, repo.path)).topics.length, 25);
});

test('403 for writers, readers and outsiders; 404 hidden; 401 anonymous', async () => {
  for (const auth of [p.writer.auth, p.reader.auth, p.outsider.auth]) {
    const res = await add(repo, 'nope', auth);
    assert.is(res.response.status, 403);
    assertSpec('repoAddTopic', res);
  }
  assert.is((await add(priv, 'nope', p.outsider.auth)).response.status, 404);
  assert.is((await add(repo, 'nope', null)).response.status, 401);
});

test.run();
