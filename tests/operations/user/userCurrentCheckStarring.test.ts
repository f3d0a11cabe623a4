import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { star } from '../../helpers/forks.js';
import { people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let repo: Repo;
let priv: Repo;

test.before(async () => {
  app = await startApp();
  p = await people(app);
  [repo, priv] = await Promise.all([sharedRepo(app, p), sharedRepo(app, p, { private: true })]);
  await Promise.all([star(app, p.outsider, repo.path), star(app, p.reader, priv.path)]);
});
test.after(async () => {
  await app.close();
});

const check = (target: Repo, auth: string | null) =>
  app.client(auth ?? undefined).GET('/user/starred/{owner}/{repo}', { params: { path: target.path } });

test('204 when the caller starred the repository, 404 when not', async () => {
  for (const [target, auth] of [[repo, p.outsider.auth], [priv, p.reader.auth]] as const) {
    const yes = await check(target, auth);
    assert.is(yes.response.status, 204);
    assertSpec('userCurrentCheckStarring', yes);
  }
  const no = await check(repo, p.reader.auth);
  assert.is(no.response.status, 404);
  assertSpec('userCurrentCheckStarring', no);
  await app.client(p.outsider.auth).DELETE('/user/starred/{owner}/{repo}', { params: { path: repo.path } });
  assert.is((await check(repo, p.outsider.auth)).response.status, 404);
});

test('404 for a repository the caller cannot see; 401 anonymous', async () => {
  assert.is((await check(priv, p.outsider.auth)).response.status, 404);
  assert.is((await check(repo, null)).response.status, 401);
});

test.run();
