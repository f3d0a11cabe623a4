import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { disk, roles, type Roles } from '../../helpers/gitFixtures.js';
import { pullFixture, review } from '../../helpers/pulls.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let r: Roles;

test.before(async () => {
  app = await startApp();
  r = await roles(app);
});
test.after(async () => {
  await app.close();
});

type Fixture = Awaited<ReturnType<typeof pullFixture>>;
const comments = (f: Fixture, id: number, auth: string | undefined) =>
  app.client(auth).GET('/repos/{owner}/{repo}/pulls/{index}/reviews/{id}/comments', { params: { path: { ...f.repo.path, index: f.pr.number, id } } });

test('200: the line comments with their path, side, commit and diff hunk up to the line', async () => {
  const f = await pullFixture(app, r);
  // A change of f.txt on the branch: a line of the old side and one of the new side to comment on.
  await disk.commit(f.dir, f.branch, { 'f.txt': 'changed\nmore\n' });
  const head = (await disk.tip(f.dir, f.branch))!;
  const made = await review(app, f, r.reader.auth, {
    event: 'COMMENT', body: 'see lines',
    comments: [{ path: 'f.txt', body: 'new two', new_position: 2 }, { path: 'f.txt', body: 'old one', old_position: 1 }],
  });
  const res = await comments(f, made.id, r.writer.auth);
  assert.is(res.response.status, 200);
  assertSpec('repoGetPullReviewComments', res);
  const [onNew, onOld] = res.data!;
  assert.equal(
    [onNew!.body, onNew!.path, onNew!.position, onNew!.original_position, onNew!.commit_id, onNew!.pull_request_review_id, onNew!.user?.login],
    ['new two', 'f.txt', 2, 0, head, made.id, r.reader.username],
  );
  assert.equal([onOld!.position, onOld!.original_position], [0, 1]);
  assert.is(onNew!.diff_hunk, '@@ -1 +1,2 @@\n-base\n+changed\n+more');
  assert.is(onOld!.diff_hunk, '@@ -1 +1,2 @@\n-base');
});

test('404: another\'s pending review, a hidden repository, no such review', async () => {
  const f = await pullFixture(app, r, { priv: true });
  const pending = await review(app, f, r.reader.auth, { comments: [{ path: 'a.txt', body: 'x', new_position: 1 }] });
  assert.is((await comments(f, pending.id, r.reader.auth)).data?.length, 1, 'its author sees it');
  assert.is((await comments(f, pending.id, r.writer.auth)).response.status, 404);
  assert.is((await comments(f, pending.id, undefined)).response.status, 404);
  assert.is((await comments(f, 999999, r.reader.auth)).response.status, 404);
});

test.run();
