import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { roles, setArchived, type Roles } from '../../helpers/gitFixtures.js';
import { feed, opTypes } from '../../helpers/events.js';
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
const dismiss = (f: Fixture, id: number, auth: string | undefined, body: { message?: string; priors?: boolean } = {}) =>
  app.client(auth).POST('/repos/{owner}/{repo}/pulls/{index}/reviews/{id}/dismissals', { params: { path: { ...f.repo.path, index: f.pr.number, id } }, body });
const get = (f: Fixture, id: number) =>
  app.client(r.owner.auth).GET('/repos/{owner}/{repo}/pulls/{index}/reviews/{id}', { params: { path: { ...f.repo.path, index: f.pr.number, id } } });

test('200: a repository admin dismisses an approval; priors dismisses the reviewer\'s earlier ones; the feed shows it', async () => {
  const f = await pullFixture(app, r);
  const first = await review(app, f, r.reader.auth, { event: 'REQUEST_CHANGES', body: 'no' });
  const second = await review(app, f, r.reader.auth, { event: 'APPROVED' });
  const res = await dismiss(f, second.id, r.owner.auth, { message: 'outdated' });
  assert.is(res.response.status, 200);
  assertSpec('repoDismissPullReview', res);
  assert.equal([res.data!.dismissed, res.data!.state], [true, 'APPROVED']);
  assert.is((await get(f, first.id)).data!.dismissed, false, 'without priors the earlier one stays');
  const third = await review(app, f, r.reader.auth, { event: 'APPROVED' });
  await dismiss(f, third.id, r.owner.auth, { priors: true });
  assert.is((await get(f, first.id)).data!.dismissed, true, 'priors');
  assert.ok(opTypes((await feed(app, f.repo.path, r.owner.auth)).data).includes('pull_review_dismissed'));
});

test('403 for a writer who is not an admin, 422 a comment review, 401 anonymous, 404 hidden, 423 archived', async () => {
  const f = await pullFixture(app, r, { priv: true });
  const approved = await review(app, f, r.reader.auth, { event: 'APPROVED' });
  const denied = await dismiss(f, approved.id, r.writer.auth);
  assert.is(denied.response.status, 403);
  assertSpec('repoDismissPullReview', denied);
  const comment = await review(app, f, r.reader.auth, { event: 'COMMENT', body: 'x' });
  assert.is((await dismiss(f, comment.id, r.owner.auth)).response.status, 422);
  assert.is((await dismiss(f, approved.id, undefined)).response.status, 401);
  assert.is((await dismiss(f, approved.id, r.outsider.auth)).response.status, 404);
  await setArchived(app, f.repo, r.owner);
  assert.is((await dismiss(f, approved.id, r.owner.auth)).response.status, 423);
});

test.run();
