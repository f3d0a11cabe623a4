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
  await star(app, p.reader, repo.path);
  await star(app, p.reader, priv.path);
});
test.after(async () => {
  await app.close();
});

const list = (username: string, auth: string | null, query: Record<string, unknown> = {}) =>
  app.client(auth ?? undefined).GET('/users/{username}/starred', { params: { path: { username }, query: query as never } });

test('200: the user themselves see their private stars; everyone else only public repositories', async () => {
  const self = await list(p.reader.username, p.reader.auth);
  assert.is(self.response.status, 200);
  assertSpec('userListStarred', self);
  assert.equal(self.data!.map((r) => r.full_name), [priv.full_name, repo.full_name]);
  assert.is(self.response.headers.get('x-total-count'), '2');
  for (const auth of [p.outsider.auth, p.owner.auth, p.admin.auth]) {
    const other = await list(p.reader.username, auth);
    assert.equal(other.data!.map((r) => r.full_name), [repo.full_name]);
    assert.is(other.response.headers.get('x-total-count'), '1');
  }
  assert.equal((await list(p.writer.username, p.outsider.auth)).data, []);
});

test('404 unknown user; 401 anonymous (Gitea requires a signed-in caller)', async () => {
  const missing = await list('nobody-here', p.outsider.auth);
  assert.is(missing.response.status, 404);
  assertSpec('userListStarred', missing);
  assert.is((await list(p.reader.username, null)).response.status, 401);
});

test.run();
