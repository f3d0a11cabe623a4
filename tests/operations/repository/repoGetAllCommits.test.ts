// GET /repos/{owner}/{repo}/commits: the history of a branch, tag or commit, filtered and paged.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertReadGuards, historyWorld, jget, type HistoryWorld } from '../../helpers/gitData.js';
import { assertSpecAnswer } from '../../helpers/spec-check.js';

let app: TestApp;
let w: HistoryWorld;
let base: string;

test.before(async () => {
  app = await startApp();
  w = await historyWorld(app);
  base = `/repos/${w.repo.full_name}/commits`;
});
test.after(async () => {
  await app.close();
});

const shas = (body: Array<{ sha: string }>) => body.map((c) => c.sha);

test('200: the default branch newest first, with stats, files and verification; paging headers', async () => {
  const res = await jget(app, `${base}?limit=2`, w.r.reader.auth);
  assert.is(res.status, 200);
  assertSpecAnswer('repoGetAllCommits', 200, res.body);
  const [c4, c3, c2, c1] = [...w.main].reverse();
  assert.equal(shas(res.body), [c4, c3]);
  assert.is(res.headers.get('x-total-count'), '4');
  assert.is(res.headers.get('x-hasmore'), 'true');
  assert.is(res.headers.get('x-pagecount'), '2');
  assert.match(res.headers.get("link")!, /[?&]page=2[^>]*>; rel="next"/);
  const top = res.body[0];
  assert.equal(top.stats, { total: 3, additions: 2, deletions: 1 });
  assert.equal(top.files, [{ filename: 'src/a.txt', status: 'modified' }]);
  assert.is(top.commit.message, 'change a\n');
  assert.is(top.commit.verification.reason, 'gpg.error.not_signed_commit');
  assert.equal(top.parents.map((p: { sha: string }) => p.sha), [c3]);
  assert.is(top.url, `${w.api}/git/commits/${c4}`);
  const page2 = await jget(app, `${base}?limit=2&page=2`);
  assert.equal(shas(page2.body), [c2, c1]);
  assert.is(page2.headers.get('x-hasmore'), 'false');
});

test('200: sha (branch with a slash, tag, commit), path, since/until, not; stat/files/verification off', async () => {
  const [c1, c2, c3, c4] = w.main;
  const cases: Array<[string, string[]]> = [
    ['sha=feature/x', [w.feature, c4!, c3!, c2!, c1!]],
    ['sha=v1', [c3!, c2!, c1!]],
    [`sha=${c2!.slice(0, 10)}`, [c2!, c1!]],
    ['path=src/a.txt', [c4!, c2!]],
    ['path=docs', [c3!]],
    ['since=2020-06-01T00:00:00Z&until=2021-06-01T00:00:00Z', [c3!]],
    [`sha=feature/x&not=main`, [w.feature]],
  ];
  for (const [q, want] of cases) {
    const res = await jget(app, `${base}?${q}`);
    assert.is(res.status, 200, q);
    assert.equal(shas(res.body), want, q);
    assert.is(res.headers.get('x-total-count'), String(want.length), q);
  }
  const lean = await jget(app, `${base}?stat=false&files=false&verification=false&limit=1`);
  assertSpecAnswer('repoGetAllCommits', 200, lean.body);
  assert.equal([lean.body[0].stats, lean.body[0].files, lean.body[0].commit.verification], [null, null, null]);
});

test('200/404 by visibility; 401 for a wrong token', async () => {
  await assertReadGuards(app, w, 'repoGetAllCommits', async (repo, auth) => {
    const res = await jget(app, `/repos/${repo.full_name}/commits?limit=1`, auth);
    return { status: res.status, body: res.body };
  });
});

test('409: an empty repository; 404: unknown sha, a path no commit touched (one with a .. segment too); 422: a bad date', async () => {
  const empty = await jget(app, `/repos/${w.empty.full_name}/commits`, w.r.owner.auth);
  assert.is(empty.status, 409);
  assertSpecAnswer('repoGetAllCommits', 409, empty.body);
  assert.is(empty.body.message, 'Git Repository is empty.');
  for (const q of ['sha=nope', 'path=nothing/here', 'path=../x', 'path=a/./b', 'path=..', 'not=nope', 'sha=--all']) assert.is((await jget(app, `${base}?${q}`)).status, 404, q);
  const bad = await jget(app, `${base}?since=yesterday`);
  assert.is(bad.status, 422);
  assertSpecAnswer('repoGetAllCommits', 422, bad.body);
});

test.run();
