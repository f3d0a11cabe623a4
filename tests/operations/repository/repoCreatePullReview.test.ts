import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { roles, setArchived, type Roles } from '../../helpers/gitFixtures.js';
import { editIssue } from '../../helpers/issues.js';
import { eventsOf, feed, opTypes } from '../../helpers/events.js';
import { eventually, fastHooks, hookBody, receiver, repoHook, type Receiver } from '../../helpers/hooks.js';
import { createReview, pullFixture, review } from '../../helpers/pulls.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let r: Roles;
let hooks: Receiver;

test.before(async () => {
  app = await startApp(fastHooks, { workers: true });
  r = await roles(app);
  hooks = await receiver();
});
test.after(async () => {
  await hooks.close();
  await app.close();
});

test('200 APPROVED by a code writer: official, on the head commit; webhook pull_request_approved and the feed', async () => {
  const f = await pullFixture(app, r);
  await repoHook(app, r.owner.auth, f.repo.path, hookBody(hooks.url, { events: ['pull_request_review'] }));
  const res = await createReview(app, f, r.owner.auth, { event: 'APPROVED', body: 'Looks good' });
  assert.is(res.response.status, 200);
  assertSpec('repoCreatePullReview', res);
  const got = res.data!;
  assert.equal(
    [got.state, got.official, got.stale, got.dismissed, got.commit_id, got.body, got.user?.login, got.comments_count],
    ['APPROVED', true, false, false, f.head, 'Looks good', r.owner.username, 0],
  );
  const delivery = await eventually(() => hooks.of('pull_request_review_approved')[0], 'the review webhook');
  assert.is(delivery.headers['x-gitea-event'], 'pull_request_approved');
  const payload = JSON.parse(delivery.body) as { action: string; review: { type: string; content: string }; pull_request: { number: number } };
  assert.equal([payload.action, payload.review, payload.pull_request.number], ['reviewed', { type: 'pull_request_review_approved', content: 'Looks good' }, f.pr.number]);
  assert.ok(opTypes((await feed(app, f.repo.path, r.owner.auth)).data).includes('approve_pull_request'));
});

test('200 by a reader: not official; REQUEST_CHANGES with line comments; COMMENT', async () => {
  const f = await pullFixture(app, r);
  const rejected = await review(app, f, r.reader.auth, {
    event: 'REQUEST_CHANGES', body: '', comments: [{ path: 'a.txt', body: 'why 1?', new_position: 1 }, { path: 'b.txt', body: 'and this', new_position: 1 }],
  });
  assert.equal([rejected.state, rejected.official, rejected.comments_count], ['REQUEST_CHANGES', false, 2]);
  const commented = await review(app, f, r.outsider.auth, { event: 'COMMENT', body: 'a thought' });
  assert.is(commented.state, 'COMMENT');
  const kinds = (await eventsOf(app, f.repo.id)).kinds;
  assert.ok(kinds.includes('pull_request_review_rejected/reviewed') && kinds.includes('pull_request_review_comment/reviewed'));
});

test('200 PENDING (or no event): kept pending, continued by the next review of the same author', async () => {
  const f = await pullFixture(app, r);
  const first = await review(app, f, r.reader.auth, { comments: [{ path: 'a.txt', body: 'first', new_position: 1 }] });
  assert.equal([first.state, first.comments_count], ['PENDING', 1]);
  const again = await review(app, f, r.reader.auth, { event: 'PENDING', comments: [{ path: 'b.txt', body: 'second', new_position: 1 }] });
  assert.equal([again.id, again.comments_count], [first.id, 2], 'the same pending review');
  const submitted = await review(app, f, r.reader.auth, { event: 'COMMENT', body: 'done' });
  assert.equal([submitted.id, submitted.state, submitted.comments_count], [first.id, 'COMMENT', 2]);
  assert.not.ok((await eventsOf(app, f.repo.id)).kinds.some((k) => k.startsWith('pull_request_review') && k !== 'pull_request_review_comment/reviewed'));
});

test('422: unknown event, changes or comment without content, the poster approving, a path not changed, no line, closed', async () => {
  const f = await pullFixture(app, r);
  const cases: Array<[string, Parameters<typeof createReview>[3], string]> = [
    [r.reader.auth, { event: 'LGTM' }, 'unknown event'],
    [r.reader.auth, { event: 'REQUEST_CHANGES' }, 'changes without content'],
    [r.reader.auth, { event: 'COMMENT', body: '  ' }, 'comment without content'],
    [r.writer.auth, { event: 'APPROVED' }, 'the poster approves'],
    [r.writer.auth, { event: 'REQUEST_CHANGES', body: 'me' }, 'the poster rejects'],
    [r.reader.auth, { event: 'COMMENT', comments: [{ path: 'f.txt', body: 'x', new_position: 1 }] }, 'a file the pull request does not change'],
    [r.reader.auth, { event: 'COMMENT', comments: [{ path: 'a.txt', body: 'x' }] }, 'no line'],
  ];
  for (const [auth, body, what] of cases) {
    const res = await createReview(app, f, auth, body);
    assert.is(res.response.status, 422, what);
    assertSpec('repoCreatePullReview', res);
  }
  const comment = await createReview(app, f, r.writer.auth, { event: 'COMMENT', body: 'the poster may comment' });
  assert.is(comment.response.status, 200);
  await editIssue(app, f.repo, f.pr.number, r.writer, { state: 'closed' });
  assert.is((await createReview(app, f, r.reader.auth, { event: 'APPROVED' })).response.status, 422, 'closed');
});

test('401 anonymous, 404 hidden repository or no such pull, 423 archived', async () => {
  const f = await pullFixture(app, r, { priv: true });
  assert.is((await createReview(app, f, undefined, { event: 'APPROVED' })).response.status, 401);
  assert.is((await createReview(app, f, r.outsider.auth, { event: 'APPROVED' })).response.status, 404);
  assert.is((await createReview(app, { ...f, pr: { number: 999 } }, r.reader.auth, { event: 'APPROVED' })).response.status, 404);
  await setArchived(app, f.repo, r.owner);
  assert.is((await createReview(app, f, r.reader.auth, { event: 'APPROVED' })).response.status, 423);
});

test.run();
