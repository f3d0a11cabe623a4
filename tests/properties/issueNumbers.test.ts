// Issue numbers come from one per-repository counter, gap-free under concurrency (issue 5).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../helpers/harness.js';
import { people, sharedRepo, type People, type Repo } from '../helpers/issues.js';
import { getRepo } from '../helpers/repos.js';

let app: TestApp;
let p: People;

test.before(async () => {
  app = await startApp();
  p = await people(app);
});
test.after(async () => {
  await app.close();
});

async function createMany(repo: Repo, n: number): Promise<number[]> {
  const authors = [p.owner, p.writer, p.reader];
  const answers = await Promise.all(
    Array.from({ length: n }, (_, k) =>
      app.client(authors[k % authors.length]!.auth).POST('/repos/{owner}/{repo}/issues', { params: { path: repo.path }, body: { title: `concurrent ${k}` } })),
  );
  for (const r of answers) assert.is(r.response.status, 201, JSON.stringify(r.error));
  return answers.map((r) => r.data!.number);
}

test('20 concurrent creations get 20 distinct consecutive numbers; another repository starts at 1', async () => {
  const [first, second] = await Promise.all([sharedRepo(app, p), sharedRepo(app, p)]);
  const numbers = await createMany(first, 20);
  assert.equal([...numbers].sort((a, b) => a - b), Array.from({ length: 20 }, (_, k) => k + 1));
  assert.is((await getRepo(app, first.path.owner, first.path.repo, p.owner.auth)).data!.open_issues_count, 20);
  const listed = await app.client(p.owner.auth).GET('/repos/{owner}/{repo}/issues', { params: { path: first.path, query: { limit: 50 } } });
  assert.equal(listed.data!.map((i) => i.number).sort((a, b) => a - b), Array.from({ length: 20 }, (_, k) => k + 1));

  const other = await createMany(second, 3);
  assert.equal([...other].sort((a, b) => a - b), [1, 2, 3], 'numbering is per repository');
  assert.equal((await createMany(first, 1)), [21], 'the first repository goes on where it stopped');
});

test('a failed creation gives its number back: no gap', async () => {
  const repo = await sharedRepo(app, p);
  assert.equal(await createMany(repo, 1), [1]);
  const failed = await app.client(p.owner.auth).POST('/repos/{owner}/{repo}/issues', { params: { path: repo.path }, body: { title: 'x', assignees: ['no-such-user'] } });
  assert.is(failed.response.status, 422);
  assert.equal(await createMany(repo, 1), [2]);
});

test.run();
