import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { repoOf, star } from '../../helpers/forks.js';
import { people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { actor } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let repo: Repo;
let priv: Repo;

test.before(async () => {
  app = await startApp();
  p = await people(app);
  [repo, priv] = await Promise.all([sharedRepo(app, p), sharedRepo(app, p, { private: true })]);
  await Promise.all([star(app, p.outsider, repo.path), star(app, p.reader, repo.path), star(app, p.reader, priv.path)]);
});
test.after(async () => {
  await app.close();
});

const del = (target: Repo, auth: string | null) =>
  app.client(auth ?? undefined).DELETE('/user/starred/{owner}/{repo}', { params: { path: target.path } });
const me = async (auth: string) => (await app.client(auth).GET('/user')).data!;

test('204: idempotent, also when racing; the counters drop once', async () => {
  const all = await Promise.all(Array.from({ length: 8 }, () => del(repo, p.outsider.auth)));
  assert.ok(all.every((r) => r.response.status === 204));
  assertSpec('userCurrentDeleteStar', all[0]!);
  assert.is((await repoOf(app, p.owner, repo.path)).stars_count, 1);
  assert.is((await me(p.outsider.auth)).starred_repos_count, 0);
  assert.is((await del(repo, p.writer.auth)).response.status, 204, 'not starred: nothing to do');
  assert.is((await repoOf(app, p.owner, repo.path)).stars_count, 1);
});

test('deleting a starred repository takes the star off its starrers', async () => {
  assert.is((await me(p.reader.auth)).starred_repos_count, 2);
  const gone = await app.client(p.owner.auth).DELETE('/repos/{owner}/{repo}', { params: { path: priv.path } });
  assert.is(gone.response.status, 204);
  assert.is((await me(p.reader.auth)).starred_repos_count, 1);
});

test('deleting a user takes their stars off the repositories', async () => {
  const gone = await actor(app);
  await star(app, gone, repo.path);
  assert.is((await repoOf(app, p.owner, repo.path)).stars_count, 2);
  const res = await app.client(p.admin.auth).DELETE('/admin/users/{username}', { params: { path: { username: gone.username } } });
  assert.is(res.response.status, 204);
  assert.is((await repoOf(app, p.owner, repo.path)).stars_count, 1);
});

test('404 for a repository the caller cannot see; 401 anonymous', async () => {
  const other = await sharedRepo(app, p, { private: true });
  const hidden = await del(other, p.outsider.auth);
  assert.is(hidden.response.status, 404);
  assertSpec('userCurrentDeleteStar', hidden);
  assert.is((await del(repo, null)).response.status, 401);
});

test.run();
