import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { repoOf } from '../../helpers/forks.js';
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
});
test.after(async () => {
  await app.close();
});

const put = (target: Repo, auth: string | null) =>
  app.client(auth ?? undefined).PUT('/user/starred/{owner}/{repo}', { params: { path: target.path } });
const me = async (auth: string) => (await app.client(auth).GET('/user')).data!;

test('204: idempotent; stars_count and starred_repos_count count one star per user, also when racing', async () => {
  const first = await put(repo, p.outsider.auth);
  assert.is(first.response.status, 204);
  assertSpec('userCurrentPutStar', first);
  // The same user ten times at once, and another user: exactly two stars.
  const all = await Promise.all([...Array.from({ length: 10 }, () => put(repo, p.outsider.auth)), put(repo, p.reader.auth)]);
  assert.ok(all.every((r) => r.response.status === 204));
  assert.is((await repoOf(app, p.owner, repo.path)).stars_count, 2);
  assert.is((await me(p.outsider.auth)).starred_repos_count, 1);
  // A collaborator may star a private repository.
  assert.is((await put(priv, p.reader.auth)).response.status, 204);
  assert.is((await me(p.reader.auth)).starred_repos_count, 2);
  assert.is((await repoOf(app, p.owner, priv.path)).stars_count, 1);
});

test('404 for a repository the caller cannot see; 401 anonymous and bad token; 403 token scope', async () => {
  const hidden = await put(priv, p.outsider.auth);
  assert.is(hidden.response.status, 404);
  assertSpec('userCurrentPutStar', hidden);
  const missing = await app.client(p.outsider.auth).PUT('/user/starred/{owner}/{repo}', { params: { path: { owner: p.owner.username, repo: 'nope' } } });
  assert.is(missing.response.status, 404);
  assert.is((await put(repo, null)).response.status, 401);
  assert.is((await put(repo, `token ${'0'.repeat(40)}`)).response.status, 401);
  const scoped = await put(repo, await app.token(p.outsider, ['write:issue']));
  assert.is(scoped.response.status, 403);
  assert.equal(scoped.error, { message: 'token does not have at least one of required scope(s): [write:repository]', url: swaggerOf(app) });
  assert.is((await repoOf(app, p.owner, priv.path)).stars_count, 1, 'the outsider added nothing');
});

test.run();
