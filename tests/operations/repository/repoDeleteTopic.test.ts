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
  await setTopics(app, p.owner, repo.path, ['a', 'b', 'c']);
});
test.after(async () => {
  await app.close();
});

const del = (target: Repo, topic: string, auth: string | null = p.owner.auth) =>
  app.client(auth ?? undefined).DELETE('/repos/{owner}/{repo}/topics/{topic}', { params: { path: { ...target.path, topic } } });

test('204: the topic goes (name lower-cased); 404 when the repository does not have it', async () => {
  const res = await del(repo, 'B');
  assert.is(res.response.status, 204);
  assertSpec('repoDeleteTopic', res);
  assert.equal((await repoOf(app, p.owner, repo.path)).topics, ['a', 'c']);
  const again = await del(repo, 'b');
  assert.is(again.response.status, 404);
  assertSpec('repoDeleteTopic', again);
  assert.is((await del(repo, 'a', p.admin.auth)).response.status, 204);
});

test('422 invalid name; 403 non-admins; 404 hidden; 401 anonymous', async () => {
  const bad = await del(repo, '.dot');
  assert.is(bad.response.status, 422);
  assert.equal(bad.error, { message: 'Topic name is invalid: .dot', url: swaggerOf(app) });
  for (const auth of [p.writer.auth, p.reader.auth, p.outsider.auth]) {
    const res = await del(repo, 'c', auth);
    assert.is(res.response.status, 403);
    assertSpec('repoDeleteTopic', res);
  }
  assert.is((await del(priv, 'c', p.outsider.auth)).response.status, 404);
  assert.is((await del(repo, 'c', null)).response.status, 401);
  assert.equal((await repoOf(app, p.owner, repo.path)).topics, ['c']);
});

test.run();
