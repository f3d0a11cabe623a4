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
const path = (f: Fixture, id: number) => ({ params: { path: { ...f.repo.path, index: f.pr.number, id } } });
const undismiss = (f: Fixture, id: number, auth: string | undefined) =>
  app.client(auth).POST('/repos/{owner}/{repo}/pulls/{index}/reviews/{id}/undismissals', path(f, id));
const dismiss = async (f: Fixture, id: number) => {
  const res = await app.client(r.owner.auth).POST('/repos/{owner}/{repo}/pulls/{index}/reviews/{id}/dismissals', { ...path(f, id), body: { message: 'stale' } });
  assert.is(res.response.status, 200);
};
const get = (f: Fixture, id: number) => app.client(r.owner.auth).GET('/repos/{owner}/{repo}/pulls/{index}/reviews/{id}', path(f, id));
const closePull = async (f: Fixture) => {
  const res = await app.client(r.owner.auth).PATCH('/repos/{owner}/{repo}/pulls/{index}', { params: { path: { ...f.repo.path, index: f.pr.number } }, body: { state: 'closed' } });
  assert.is(res.response.status, 201);
};

test('200: a repository admin (the owner, the site admin) undismisses an approval and a request for changes; nothing else is recorded', async () => {
  const f = await pullFixture(app, r);
  const approval = await review(app, f, r.reader.auth, { event: 'APPROVED' });
  const changes = await review(app, f, r.reader.auth, { event: 'REQUEST_CHANGES', body: 'no' });
  for (const [id, who, state] of [[approval.id, r.owner, 'APPROVED'], [changes.id, r.admin, 'REQUEST_CHANGES']] as const) {
    await dismiss(f, id);
    const before = (await eventsOf(app, f.repo.id)).rows.length;
    const res = await undismiss(f, id, who.auth);
    assert.is(res.response.status, 200, who.username);
    assertSpec('repoUnDismissPullReview', res);
    assert.equal([res.data!.id, res.data!.dismissed, res.data!.state], [id, false, state]);
    assert.is((await get(f, id)).data!.dismissed, false, 'stored');
    assert.is((await eventsOf(app, f.repo.id)).rows.length, before, 'no event, as Gitea');
  }
  // A review that is not dismissed stays as it is.
  const again = await undismiss(f, approval.id, r.owner.auth);
  assert.is(again.response.status, 200);
  assert.is(again.data!.dismissed, false);
});

test('an undismissed approval counts again for the protection rule\'s required approvals', async () => {
  const f = await pullFixture(app, r);
  const rule = await app.client(r.owner.auth).POST('/repos/{owner}/{repo}/branch_protections', { params: { path: f.repo.path }, body: { rule_name: 'main', required_approvals: 1, enable_push: true } });
  assert.is(rule.response.status, 201);
  const approval = await review(app, f, r.admin.auth, { event: 'APPROVED' });
  await dismiss(f, approval.id);
  const merge = () => app.client(r.owner.auth).POST('/repos/{owner}/{repo}/pulls/{index}/merge', { params: { path: { ...f.repo.path, index: f.pr.number } }, body: { Do: 'merge' } });
  assert.is((await merge()).response.status, 405, 'the dismissed approval does not count');
  assert.is((await undismiss(f, approval.id, r.owner.auth)).response.status, 200);
  assert.is((await merge()).response.status, 200, 'it counts again');
});

test('403 writers and readers; 401 anonymous; 404 outsider on a private repository and an unknown review; 422 a comment review and a closed pull request; 423 archived', async () => {
  const f = await pullFixture(app, r, { priv: true });
  const approval = await review(app, f, r.reader.auth, { event: 'APPROVED' });
  await dismiss(f, approval.id);
  for (const who of [r.writer, r.reader]) {
    const res = await undismiss(f, approval.id, who.auth);
    assert.is(res.response.status, 403, who.username);
    assertSpec('repoUnDismissPullReview', res);
  }
  assert.is((await undismiss(f, approval.id, undefined)).response.status, 401);
  assert.is((await undismiss(f, approval.id, r.outsider.auth)).response.status, 404);
  assert.is((await undismiss(f, approval.id + 10_000, r.owner.auth)).response.status, 404);
  const comment = await review(app, f, r.reader.auth, { event: 'COMMENT', body: 'x' });
  const wrongType = await undismiss(f, comment.id, r.owner.auth);
  assert.is(wrongType.response.status, 422);
  assertSpec('repoUnDismissPullReview', wrongType);
  assert.is((await get(f, approval.id)).data!.dismissed, true, 'refusals change nothing');
  await closePull(f);
  assert.is((await undismiss(f, approval.id, r.owner.auth)).response.status, 422, 'closed');
  await setArchived(app, f.repo, r.owner);
  assert.is((await undismiss(f, approval.id, r.owner.auth)).response.status, 423);
  assert.is((await get(f, approval.id)).data!.dismissed, true);
});

test.run();
