import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { fork, star } from '../../helpers/forks.js';
import { people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let repo: Repo;
let priv: Repo;
let forked: { owner: string; repo: string };

test.before(async () => {
  app = await startApp();
  p = await people(app);
  [repo, priv] = await Promise.all([sharedRepo(app, p), sharedRepo(app, p, { private: true })]);
  const f = await fork(app, p.writer, repo.path);
  forked = { owner: f.owner.login, repo: f.name };
  await star(app, p.reader, repo.path);
  await star(app, p.reader, priv.path);
  await star(app, p.reader, forked);
});
test.after(async () => {
  await app.close();
});

const list = (auth: string | null, query: Record<string, unknown> = {}) =>
  app.client(auth ?? undefined).GET('/user/starred', { params: { query: query as never } });

test('200: the caller\'s stars, newest first, private ones included, forks with their parent', async () => {
  const res = await list(p.reader.auth);
  assert.is(res.response.status, 200);
  assertSpec('userCurrentListStarred', res);
  assert.equal(res.data!.map((r) => r.full_name), [`${forked.owner}/${forked.repo}`, priv.full_name, repo.full_name]);
  assert.is(res.response.headers.get('x-total-count'), '3');
  const [f] = res.data!;
  assert.is(f!.fork, true);
  assert.is(f!.parent?.full_name, repo.full_name);
  assert.is(res.data![1]!.permissions?.pull, true);
  const page = await list(p.reader.auth, { limit: 1, page: 3 });
  assert.equal(page.data!.map((r) => r.full_name), [repo.full_name]);
  assert.equal((await list(p.outsider.auth)).data, []);
});

test('a repository the caller can no longer see drops out', async () => {
  await app.client(p.owner.auth).DELETE('/repos/{owner}/{repo}/collaborators/{collaborator}', { params: { path: { ...priv.path, collaborator: p.reader.username } } });
  assert.equal((await list(p.reader.auth)).data!.map((r) => r.full_name), [`${forked.owner}/${forked.repo}`, repo.full_name]);
});

test('401 anonymous', async () => {
  const res = await list(null);
  assert.is(res.response.status, 401);
  assertSpec('userCurrentListStarred', res);
});

test.run();
