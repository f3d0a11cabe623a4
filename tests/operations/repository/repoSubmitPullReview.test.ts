import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { roles, setArchived, type Roles } from '../../helpers/gitFixtures.js';
import { eventsOf } from '../../helpers/events.js';
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
const submit = (f: Fixture, id: number, auth: string | undefined, body: { event: string; body?: string }) =>
  app.client(auth).POST('/repos/{owner}/{repo}/pulls/{index}/reviews/{id}', { params: { path: { ...f.repo.path, index: f.pr.number, id } }, body });

test('200: the author submits a pending review (its body kept unless replaced); the event follows', async () => {
  const f = await pullFixture(app, r);
  const pending = await review(app, f, r.owner.auth, { body: 'first thoughts', comments: [{ path: 'a.txt', body: 'here', new_position: 1 }] });
  const res = await submit(f, pending.id, r.owner.auth, { event: 'APPROVED' });
  assert.is(res.response.status, 200);
  assertSpec('repoSubmitPullReview', res);
  assert.equal([res.data!.id, res.data!.state, res.data!.body, res.data!.official, res.data!.comments_count], [pending.id, 'APPROVED', 'first thoughts', true, 1]);
  assert.ok((await eventsOf(app, f.repo.id)).kinds.includes('pull_request_review_approved/reviewed'));
  const other = await review(app, f, r.reader.auth, { body: 'x' });
  const replaced = await submit(f, other.id, r.reader.auth, { event: 'COMMENT', body: 'final words' });
  assert.equal([replaced.data!.state, replaced.data!.body], ['COMMENT', 'final words']);
});

test('422: not pending, PENDING or unknown event, the poster approving, changes without content; 404 another\'s pending review', async () => {
  const f = await pullFixture(app, r);
  const done = await review(app, f, r.owner.auth, { event: 'APPROVED' });
  assert.is((await submit(f, done.id, r.owner.auth, { event: 'COMMENT', body: 'x' })).response.status, 422, 'not pending');
  const pending = await review(app, f, r.reader.auth, {});
  for (const event of ['PENDING', 'SHIP_IT']) assert.is((await submit(f, pending.id, r.reader.auth, { event })).response.status, 422, event);
  assert.is((await submit(f, pending.id, r.reader.auth, { event: 'REQUEST_CHANGES' })).response.status, 422, 'no content');
  assert.is((await submit(f, pending.id, r.writer.auth, { event: 'COMMENT', body: 'x' })).response.status, 404, 'another user\'s');
  const mine = await review(app, f, r.writer.auth, {});
  const own = await submit(f, mine.id, r.writer.auth, { event: 'APPROVED' });
  assert.is(own.response.status, 422, 'the poster approving');
  assertSpec('repoSubmitPullReview', own);
});

test('401 anonymous, 404 hidden or unknown, 423 archived', async () => {
  const f = await pullFixture(app, r, { priv: true });
  const pending = await review(app, f, r.reader.auth, {});
  assert.is((await submit(f, pending.id, undefined, { event: 'COMMENT', body: 'x' })).response.status, 401);
  assert.is((await submit(f, pending.id, r.outsider.auth, { event: 'COMMENT', body: 'x' })).response.status, 404);
  assert.is((await submit(f, 999999, r.reader.auth, { event: 'COMMENT', body: 'x' })).response.status, 404);
  await setArchived(app, f.repo, r.owner);
  assert.is((await submit(f, pending.id, r.reader.auth, { event: 'COMMENT', body: 'x' })).response.status, 423);
});

test.run();
