import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fork } from '../../helpers/forks.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { linksOf } from '../../helpers/orgs.js';
import { actor, addCollaborator, type Actor } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let repo: Repo;
let priv: Repo;
let third: Actor;
const names: string[] = [];

test.before(async () => {
  app = await startApp();
  p = await people(app);
  third = await actor(app);
  [repo, priv] = await Promise.all([sharedRepo(app, p), sharedRepo(app, p, { private: true })]);
  for (const who of [p.reader, p.outsider, p.writer]) names.push((await fork(app, who, repo.path)).full_name);
  // A private fork of the public repository: turned private by its owner.
  await app.client(p.writer.auth).PATCH('/repos/{owner}/{repo}', { params: { path: { owner: p.writer.username, repo: repo.name } }, body: { private: true } });
  await fork(app, p.reader, priv.path);
});
test.after(async () => {
  await app.close();
});

const list = (target: Repo, auth: string | null, query: Record<string, unknown> = {}) =>
  app.client(auth ?? undefined).GET('/repos/{owner}/{repo}/forks', { params: { path: target.path, query: query as never } });

test('200: the forks the caller can see, oldest first, with their parent', async () => {
  for (const auth of [null, third.auth]) {
    const res = await list(repo, auth);
    assert.is(res.response.status, 200);
    assertSpec('listForks', res);
    assert.equal(res.data!.map((r) => r.full_name), names.slice(0, 2));
    assert.is(res.response.headers.get('x-total-count'), '2');
    assert.ok(res.data!.every((r) => r.fork && r.parent?.full_name === repo.full_name));
  }
  for (const auth of [p.writer.auth, p.admin.auth]) {
    assert.equal((await list(repo, auth)).data!.map((r) => r.full_name), names);
  }
  const page = await list(repo, p.admin.auth, { limit: 1, page: 2 });
  assert.equal(page.data!.map((r) => r.full_name), [names[1]]);
  assert.equal(linksOf(page.response.headers.get('link')), { next: { page: 3, limit: 1 }, last: { page: 3, limit: 1 }, first: { page: 1, limit: 1 }, prev: { page: 1, limit: 1 } });
  const privForks = await list(priv, p.reader.auth);
  assert.equal(privForks.data!.map((r) => [r.full_name, r.private]), [[`${p.reader.username}/${priv.name}`, true]]);
});

test('a fork whose parent the caller cannot see shows no parent', async () => {
  const forkPath = { owner: p.reader.username, repo: priv.name };
  await addCollaborator(app, { full_name: `${p.reader.username}/${priv.name}` } as never, third, 'read');
  const got = await app.client(third.auth).GET('/repos/{owner}/{repo}', { params: { path: forkPath } });
  assert.is(got.response.status, 200);
  assert.equal([got.data!.fork, got.data!.parent], [true, null]);
  const seen = await app.client(p.reader.auth).GET('/repos/{owner}/{repo}', { params: { path: forkPath } });
  assert.is(seen.data!.parent?.full_name, priv.full_name);
});

test('404 for a hidden repository; 422 bad page', async () => {
  for (const auth of [null, p.outsider.auth]) {
    const res = await list(priv, auth);
    assert.is(res.response.status, 404);
    assertSpec('listForks', res);
  }
  assert.is((await list(repo, null, { page: 'x' })).response.status, 422);
});

test.run();
