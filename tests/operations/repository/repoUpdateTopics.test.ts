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

const put = (target: Repo, topics: string[], auth: string | null = p.owner.auth) =>
  app.client(auth ?? undefined).PUT('/repos/{owner}/{repo}/topics', { params: { path: target.path }, body: { topics } });

test('204: trimmed, lower-cased, deduplicated and sorted; an empty list clears them', async () => {
  const res = await put(repo, [' Zeta ', 'alpha', 'ALPHA', '', 'go-lang', 'v1.2']);
  assert.is(res.response.status, 204);
  assertSpec('repoUpdateTopics', res);
  assert.equal((await repoOf(app, p.owner, repo.path)).topics, ['alpha', 'go-lang', 'v1.2', 'zeta']);
  assert.is((await put(repo, ['x'], p.admin.auth)).response.status, 204, 'a site administrator may');
  assert.is((await put(repo, [])).response.status, 204);
  assert.equal((await repoOf(app, p.owner, repo.path)).topics, []);
  const max = Array.from({ length: 25 }, (_, i) => `t${i}`);
  assert.is((await put(repo, [...max, 'T0'])).response.status, 204, '25 once deduplicated');
  assert.is((await repoOf(app, p.owner, repo.path)).topics.length, 25);
});

test('422: invalid names are listed, more than 25 refused; nothing changes', async () => {
  const bad = await put(repo, ['ok', '-dash', 'a'.repeat(36), 'sp ace', 'ünï']);
  assert.is(bad.response.status, 422);
  assertSpec('repoUpdateTopics', bad);
  assert.equal(bad.error, { message: `Topic names are invalid: -dash, ${'a'.repeat(36)}, sp ace, ünï`, url: swaggerOf(app) });
  const many = await put(repo, Array.from({ length: 26 }, (_, i) => `n${i}`));
  assert.is(many.response.status, 422);
  assert.equal(many.error, { message: 'Exceeding maximum number of topics per repo', url: swaggerOf(app) });
  assert.is((await repoOf(app, p.owner, repo.path)).topics.length, 25);
  assert.is((await app.client(p.owner.auth).PUT('/repos/{owner}/{repo}/topics', { params: { path: repo.path }, body: {} as never })).response.status, 422);
});

test('403 for writers and readers, 404 when the repository is hidden, 401 anonymous', async () => {
  for (const auth of [p.writer.auth, p.reader.auth, p.outsider.auth]) {
    const res = await put(repo, ['nope'], auth);
    assert.is(res.response.status, 403);
    assertSpec('repoUpdateTopics', res);
  }
  assert.is((await put(priv, ['nope'], p.outsider.auth)).response.status, 404);
  assert.is((await put(repo, ['nope'], null)).response.status, 401);
});

test.run();
