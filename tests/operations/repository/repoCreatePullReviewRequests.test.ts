import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { roles, setArchived, type Roles } from '../../helpers/gitFixtures.js';
import { addTeamMember, createOrg, createTeam } from '../../helpers/orgs.js';
import { eventsOf } from '../../helpers/events.js';
import { addFile, getPull, openPull, patch, pullFixture, requestReviews, review } from '../../helpers/pulls.js';
import { orgRepo, pathOf } from '../../helpers/repos.js';
import { hookBody, repoHook } from '../../helpers/hooks.js';
import { deadUrl } from '../../helpers/hookRoles.js';
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

test('201: the poster asks a reader; the pull request lists them until they review; asked once only', async () => {
  const f = await pullFixture(app, r);
  const res = await requestReviews(app, f, r.writer.auth, { reviewers: [r.reader.username] });
  assert.is(res.response.status, 201);
  assertSpec('repoCreatePullReviewRequests', res);
  assert.equal(res.data!.map((x) => [x.state, x.user?.login]), [['REQUEST_REVIEW', r.reader.username]]);
  assert.equal((await getPull(app, f.repo, f.pr.number)).requested_reviewers.map((u) => u.login), [r.reader.username]);
  const again = await requestReviews(app, f, r.writer.auth, { reviewers: [r.reader.username.toUpperCase()] });
  assert.equal([again.response.status, again.data], [201, []], 'not asked twice');
  assert.ok((await eventsOf(app, f.repo.id)).kinds.includes('pull_request_review_request/review_requested'));
  const inbox = await app.client(r.reader.auth).GET('/notifications');
  assert.ok(inbox.data!.some((n) => n.subject.type === 'Pull' && n.subject.title === f.pr.title), 'the requested reviewer is notified');
  await review(app, f, r.reader.auth, { event: 'APPROVED' });
  assert.equal((await getPull(app, f.repo, f.pr.number)).requested_reviewers, [], 'answered');
  const anew = await requestReviews(app, f, r.owner.auth, { reviewers: [r.reader.username] });
  assert.is(anew.data!.length, 1, 'a writer asks again after the answer');
});

test('201: the review_requested webhook carries the requested reviewer and the pull request\'s requested_reviewers', async () => {
  const f = await pullFixture(app, r);
  const hook = await repoHook(app, r.owner.auth, f.repo.path, hookBody(deadUrl, { events: ['pull_request_review_request'] }));
  assert.is((await requestReviews(app, f, r.writer.auth, { reviewers: [r.reader.username] })).response.status, 201);
  const list = await app.client(r.owner.auth).GET('/repos/{owner}/{repo}/hooks/{id}/deliveries', { params: { path: { ...f.repo.path, id: hook.id } } });
  assert.equal(list.data!.map((d) => [d.event, d.event_type]), [['pull_request', 'pull_request_review_request']]);
  const detail = await app.client(r.owner.auth).GET('/repos/{owner}/{repo}/hooks/{id}/deliveries/{delivery_id}', {
    params: { path: { ...f.repo.path, id: hook.id, delivery_id: list.data![0]!.id } },
  });
  const payload = JSON.parse(detail.data!.request.payload) as { action: string; requested_reviewer: { login: string }; pull_request: { requested_reviewers: Array<{ login: string }> } };
  assert.is(payload.action, 'review_requested');
  assert.is(payload.requested_reviewer.login, r.reader.username);
  assert.equal(payload.pull_request.requested_reviewers.map((u) => u.login), [r.reader.username]);
});

test('201: teams of the organization owning the repository', async () => {
  const org = await createOrg(app, r.owner);
  const made = await orgRepo(app, org.name ?? org.username, r.owner, { auto_init: true });
  const repo = { ...made, path: pathOf(made) };
  const team = await createTeam(app, r.owner, org.username, { units_map: { 'repo.code': 'read', 'repo.pulls': 'read' } });
  await addTeamMember(app, r.owner, team.id, r.reader.username);
  await patch(app, repo, r.owner, addFile('t.txt', ['t']), { newBranch: 'team-topic' });
  const pr = await openPull(app, repo, r.owner, 'team-topic');
  const res = await requestReviews(app, { repo, pr }, r.owner.auth, { team_reviewers: [team.name] });
  assert.is(res.response.status, 201);
  assertSpec('repoCreatePullReviewRequests', res);
  assert.equal(res.data!.map((x) => [x.state, x.team?.name, x.user]), [['REQUEST_REVIEW', team.name, null]]);
  assert.equal((await getPull(app, repo, pr.number)).requested_reviewers_teams.map((t) => t.name), [team.name]);
  assert.is((await requestReviews(app, { repo, pr }, r.owner.auth, { team_reviewers: ['nope'] })).response.status, 404);
});

test('422: not the poster nor a writer, the poster as reviewer, a reviewer who cannot read, teams on a user\'s repository, closed', async () => {
  const f = await pullFixture(app, r, { priv: true });
  const cases: Array<[string, Parameters<typeof requestReviews>[3], string]> = [
    [r.reader.auth, { reviewers: [r.owner.username] }, 'a reader who is not the poster'],
    [r.owner.auth, { reviewers: [r.writer.username] }, 'the poster'],
    [r.writer.auth, { reviewers: [r.outsider.username] }, 'cannot read the private repository'],
    [r.writer.auth, { team_reviewers: ['owners'] }, 'teams on a repository of a user'],
  ];
  for (const [auth, body, what] of cases) {
    const res = await requestReviews(app, f, auth, body);
    assert.is(res.response.status, 422, what);
    assertSpec('repoCreatePullReviewRequests', res);
  }
  assert.is((await requestReviews(app, f, r.writer.auth, { reviewers: ['nobody-at-all'] })).response.status, 404, 'unknown user');
  assert.is((await requestReviews(app, f, undefined, { reviewers: [r.reader.username] })).response.status, 401);
  assert.is((await requestReviews(app, f, r.outsider.auth, { reviewers: [r.reader.username] })).response.status, 404);
  await setArchived(app, f.repo, r.owner);
  assert.is((await requestReviews(app, f, r.writer.auth, { reviewers: [r.reader.username] })).response.status, 423);
});

test.run();
