import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { star } from '../../helpers/forks.js';
import { people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { linksOf } from '../../helpers/orgs.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let repo: Repo;
let priv: Repo;

test.before(async () => {
  app = await startApp();
  p = await people(app);
  [repo, priv] = await Promise.all([sharedRepo(app, p), sharedRepo(app, p, { private: true })]);
  await star(app, p.reader, repo.path);
  await star(app, p.outsider, repo.path);
  await star(app, p.writer, repo.path);
});
test.after(async () => {
  await app.close();
});

const list = (target: Repo, query: Record<string, unknown> = {}, auth: string | null = p.reader.auth) =>
  app.client(auth ?? undefined).GET('/repos/{owner}/{repo}/stargazers', { params: { path: target.path, query: query as never } });

test('200: oldest star first, paginated, for anyone who can see the repository', async () => {
  for (const auth of [null, p.outsider.auth, p.admin.auth]) {
    const res = await list(repo, {}, auth);
    assert.is(res.response.status, 200);
    assertSpec('repoListStargazers', res);
    assert.equal(res.data!.map((u) => u.login), [p.reader.username, p.outsider.username, p.writer.username]);
    assert.is(res.response.headers.get('x-total-count'), '3');
  }
  const page = await list(repo, { limit: 1, page: 2 });
  assert.equal(page.data!.map((u) => u.login), [p.outsider.username]);
  assert.equal(linksOf(page.response.headers.get('link')), { next: { page: 3, limit: 1 }, last: { page: 3, limit: 1 }, first: { page: 1, limit: 1 }, prev: { page: 1, limit: 1 } });
  const none = await list(priv);
  assert.equal(none.data, []);
  assert.is(none.response.headers.get('x-total-count'), '0');
});

test('404 for a private repository the caller cannot see; 422 bad page', async () => {
  for (const auth of [null, p.outsider.auth]) {
    const res = await list(priv, {}, auth);
    assert.is(res.response.status, 404);
    assertSpec('repoListStargazers', res);
  }
  assert.is((await list(repo, { page: 'x' })).response.status, 422);
});

test.run();
