import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { watch } from '../../helpers/notifications.js';
import { linksOf } from '../../helpers/orgs.js';
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
  await watch(app, p.reader, repo.path);
  await watch(app, p.outsider, repo.path);
});
test.after(async () => {
  await app.close();
});

/** `auth` null: anonymous. */
const list = (target: Repo, query: Record<string, unknown> = {}, auth: string | null = p.reader.auth) =>
  app.client(auth ?? undefined).GET('/repos/{owner}/{repo}/subscribers', { params: { path: target.path, query: query as never } });

test('200: the creator first, then the others in the order they started watching; watchers_count agrees', async () => {
  for (const auth of [null, p.outsider.auth, p.admin.auth]) {
    const res = await list(repo, {}, auth);
    assert.is(res.response.status, 200);
    assertSpec('repoListSubscribers', res);
    assert.equal(res.data!.map((u) => u.login), [p.owner.username, p.reader.username, p.outsider.username]);
    assert.is(res.response.headers.get('x-total-count'), '3');
  }
  const got = await app.client(p.owner.auth).GET('/repos/{owner}/{repo}', { params: { path: repo.path } });
  assert.is(got.data!.watchers_count, 3);
  const page = await list(repo, { limit: 1, page: 2 });
  assert.equal(page.data!.map((u) => u.login), [p.reader.username]);
  assert.equal(linksOf(page.response.headers.get('link')), { next: { page: 3, limit: 1 }, last: { page: 3, limit: 1 }, first: { page: 1, limit: 1 }, prev: { page: 1, limit: 1 } });
  assert.equal((await list(priv, {}, p.reader.auth)).data!.map((u) => u.login), [p.owner.username]);
});

test('401, 403, 404, 422', async () => {
  assert.is((await list(repo, {}, `token ${'0'.repeat(40)}`)).response.status, 401);
  const scoped = await list(repo, {}, await app.token(p.reader, ['read:issue']));
  assert.is(scoped.response.status, 403);
  assert.equal(scoped.error, { message: 'token does not have at least one of required scope(s): [read:repository]', url: swaggerOf(app) });
  for (const auth of [null, p.outsider.auth]) {
    const res = await list(priv, {}, auth);
    assert.is(res.response.status, 404);
    assertSpec('repoListSubscribers', res);
  }
  assert.is((await list(repo, { page: 'x' })).response.status, 422);
});

test.run();
