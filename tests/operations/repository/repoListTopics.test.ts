import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { setTopics } from '../../helpers/forks.js';
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
  await setTopics(app, p.owner, repo.path, ['go', 'api', 'rest']);
  await setTopics(app, p.owner, priv.path, ['secret']);
});
test.after(async () => {
  await app.close();
});

const list = (target: Repo, auth: string | null, query: Record<string, unknown> = {}) =>
  app.client(auth ?? undefined).GET('/repos/{owner}/{repo}/topics', { params: { path: target.path, query: query as never } });

test('200: in name order, paginated, for anyone who can see the repository', async () => {
  for (const auth of [null, p.outsider.auth, p.reader.auth]) {
    const res = await list(repo, auth);
    assert.is(res.response.status, 200);
    assertSpec('repoListTopics', res);
    assert.equal(res.data, { topics: ['api', 'go', 'rest'] });
    assert.is(res.response.headers.get('x-total-count'), '3');
  }
  assert.equal((await list(repo, null, { limit: 2, page: 2 })).data, { topics: ['rest'] });
  assert.equal((await list(priv, p.reader.auth)).data, { topics: ['secret'] });
});

test('404 for a hidden repository; 422 bad page', async () => {
  for (const auth of [null, p.outsider.auth]) {
    const res = await list(priv, auth);
    assert.is(res.response.status, 404);
    assertSpec('repoListTopics', res);
  }
  assert.is((await list(repo, null, { page: 'x' })).response.status, 422);
});

test.run();
