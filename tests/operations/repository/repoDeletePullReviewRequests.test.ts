import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { roles, setArchived, type Roles } from '../../helpers/gitFixtures.js';
import { eventsOf } from '../../helpers/events.js';
import { getPull, pullFixture, requestReviews } from '../../helpers/pulls.js';
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

test('204: the poster or a writer withdraws a request (also one never made)', async () => {
  const f = await pullFixture(app, r);
  await requestReviews(app, f, r.writer.auth, { reviewers: [r.reader.username, r.owner.username] });
  const res = await requestReviews(app, f, r.owner.auth, { reviewers: [r.reader.username] }, true);
  assert.is(res.response.status, 204);
  assertSpec('repoDeletePullReviewRequests', res);
  assert.equal((await getPull(app, f.repo, f.pr.number)).requested_reviewers.map((u) => u.login), [r.owner.username]);
  assert.ok((await eventsOf(app, f.repo.id)).kinds.includes('pull_request_review_request/review_request_removed'));
  assert.is((await requestReviews(app, f, r.writer.auth, { reviewers: [r.reader.username] }, true)).response.status, 204, 'not asked');
});

test('204: a reviewer withdraws their own pending request (Gitea); 422 for anyone else\'s, or with none pending', async () => {
  const f = await pullFixture(app, r);
  await requestReviews(app, f, r.writer.auth, { reviewers: [r.reader.username, r.owner.username] });
  const other = await requestReviews(app, f, r.reader.auth, { reviewers: [r.owner.username] }, true);
  assert.is(other.response.status, 422);
  assert.is((other.error as { message: string }).message, 'Doer can\'t remove reviewer');
  const both = await requestReviews(app, f, r.reader.auth, { reviewers: [r.reader.username, r.owner.username] }, true);
  assert.is(both.response.status, 422, 'nothing is withdrawn when one name is not the caller');
  assert.equal((await getPull(app, f.repo, f.pr.number)).requested_reviewers.map((u) => u.login).sort(), [r.owner.username, r.reader.username].sort());
  const own = await requestReviews(app, f, r.reader.auth, { reviewers: [r.reader.username.toUpperCase()] }, true);
  assert.is(own.response.status, 204);
  assert.equal((await getPull(app, f.repo, f.pr.number)).requested_reviewers.map((u) => u.login), [r.owner.username]);
  assert.is((await requestReviews(app, f, r.reader.auth, { reviewers: [r.reader.username] }, true)).response.status, 422, 'no longer pending');
  // Naming nobody withdraws nothing: one who may not change the requests is refused, not told 204.
  assert.is((await requestReviews(app, f, r.reader.auth, { reviewers: [] }, true)).response.status, 422, 'an empty list from a reader');
  assert.is((await requestReviews(app, f, r.outsider.auth, {}, true)).response.status, 422, 'no list at all from an outsider');
  assert.is((await requestReviews(app, f, r.writer.auth, { reviewers: [] }, true)).response.status, 204, 'a writer may send an empty list');
});

test('422 a reader who is not the poster, 404 unknown user or hidden repository, 401 anonymous, 423 archived', async () => {
  const f = await pullFixture(app, r, { priv: true });
  await requestReviews(app, f, r.writer.auth, { reviewers: [r.reader.username, r.owner.username] });
  assert.is((await requestReviews(app, f, r.reader.auth, { reviewers: [r.owner.username] }, true)).response.status, 422);
  assert.is((await requestReviews(app, f, r.writer.auth, { reviewers: ['nobody-at-all'] }, true)).response.status, 404);
  assert.is((await requestReviews(app, f, r.outsider.auth, { reviewers: [r.reader.username] }, true)).response.status, 404);
  assert.is((await requestReviews(app, f, undefined, { reviewers: [r.reader.username] }, true)).response.status, 401);
  await setArchived(app, f.repo, r.owner);
  assert.is((await requestReviews(app, f, r.writer.auth, { reviewers: [r.reader.username] }, true)).response.status, 423);
});

test.run();
