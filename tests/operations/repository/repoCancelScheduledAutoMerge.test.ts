// Merges scheduled with merge_when_checks_succeed: 201 and nothing merged while the head's statuses are
// not green, merged by the worker (as the scheduler) when the last one turns green, with the webhook
// a receiver on loopback gets; DELETE .../merge cancels, for the scheduler or a repository admin only.
import { eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { disk, setArchived, wrongScope, type Roles, roles } from '../../helpers/gitFixtures.js';
import { eventually, fastHooks, hookBody, receiver, repoHook, type Receiver } from '../../helpers/hooks.js';
import { feed, opTypes } from '../../helpers/events.js';
import { getPull, mergePull, protectOk, pullFixture, review } from '../../helpers/pulls.js';
import { report } from '../../helpers/statuses.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { pullAutoMerges } from '../../../src/db/schema/index.js';
import { AutoMergeWorker } from '../../../src/jobs/autoMerge.js';

let app: TestApp;
let r: Roles;
let hooks: Receiver;

test.before(async () => {
  app = await startApp({ ...fastHooks, PULL_AUTO_MERGE_POLL_INTERVAL_MS: '200' }, { workers: true, autoMerge: true });
  r = await roles(app);
  hooks = await receiver();
});
test.after(async () => {
  await hooks.close();
  await app.close();
});

type Fixture = Awaited<ReturnType<typeof pullFixture>>;

const cancel = (f: Fixture, auth: string | undefined, index = f.pr.number) =>
  app.client(auth).DELETE('/repos/{owner}/{repo}/pulls/{index}/merge', { params: { path: { ...f.repo.path, index } } });

async function schedule(f: Fixture, auth = r.writer.auth, body: Partial<Parameters<typeof mergePull>[4]> = {}) {
  const res = await mergePull(app, f.repo, auth, f.pr.number, { Do: 'squash', merge_when_checks_succeed: true, ...body });
  assert.is(res.response.status, 201, `schedule: ${JSON.stringify(res.error)}`);
  assertSpec('repoMergePullRequest', res);
}

test('201: scheduled while statuses are missing or pending; merged by the worker, as the scheduler, when the last turns green', async () => {
  const f = await pullFixture(app, r, { diverge: true });
  await repoHook(app, r.owner.auth, f.repo.path, hookBody(hooks.url, { events: ['pull_request'] }));
  await schedule(f, r.writer.auth, { delete_branch_after_merge: true });
  await report(app, r.writer.auth, f.repo, f.head, { state: 'pending', context: 'ci/build' });
  await report(app, r.writer.auth, f.repo, f.head, { state: 'success', context: 'ci/lint' });
  // Rounds of the worker while ci/build is pending (run here, not waited for) merge nothing.
  const worker = new AutoMergeWorker(app.services.deps, app.services.pulls, app.services.merges, app.services.access);
  for (let round = 0; round < 3; round++) assert.is(await worker.runOnce(), 0, `round ${round}: pending, nothing merged`);
  assert.is((await getPull(app, f.repo, f.pr.number)).merged, false, 'pending: not merged');
  const again = await mergePull(app, f.repo, r.writer.auth, f.pr.number, { Do: 'merge', merge_when_checks_succeed: true });
  assert.is(again.response.status, 409, 'already scheduled');

  await report(app, r.owner.auth, f.repo, f.head, { state: 'success', context: 'ci/build' });
  const merged = await eventually(async () => {
    const pr = await getPull(app, f.repo, f.pr.number);
    return pr.merged && pr;
  }, 'the scheduled merge');
  assert.is(merged.merged_by!.login, r.writer.username, 'merged as the scheduler');
  const tip = (await disk.tip(f.dir, 'main'))!;
  assert.is(merged.merge_commit_sha, tip);
  assert.equal((await disk.run(f.dir, ['log', '-1', '--format=%P', tip])).trim(), f.base, 'squashed, as scheduled');
  await eventually(async () => (await disk.tip(f.dir, f.branch)) === undefined, 'the head branch deleted, as scheduled');
  const activity = await feed(app, f.repo.path, r.owner.auth);
  assert.ok(opTypes(activity.data).includes('auto_merge_pull_request'), `feed: ${opTypes(activity.data)}`);
  const delivery = await eventually(() => hooks.of('pull_request').find((d) => JSON.parse(d.body).action === 'closed'), 'the closed webhook');
  const body = JSON.parse(delivery.body) as { pull_request: { merged: boolean; merged_by: { login: string } | null; merge_commit_sha: string } };
  assert.equal([body.pull_request.merged, body.pull_request.merged_by?.login, body.pull_request.merge_commit_sha], [true, r.writer.username, tip]);
  assert.is((await cancel(f, r.writer.auth)).response.status, 404, 'nothing scheduled once merged');
});

test('a protected base: the merge waits for the contexts its rule requires (and its approvals), then fires', async () => {
  const f = await pullFixture(app, r);
  await protectOk(app, f.repo, r.owner.auth, { rule_name: 'main', enable_push: true, enable_status_check: true, status_check_contexts: ['ci/required'], required_approvals: 1 });
  await report(app, r.writer.auth, f.repo, f.head, { state: 'success', context: 'ci/other' });
  // Other contexts are green, the required one missing: scheduled, not merged.
  await schedule(f, r.writer.auth, { Do: 'merge' });
  await report(app, r.writer.auth, f.repo, f.head, { state: 'success', context: 'ci/required' });
  await new Promise((res) => setTimeout(res, 600));
  assert.is((await getPull(app, f.repo, f.pr.number)).merged, false, 'the rule also wants an approval');
  await review(app, f, r.owner.auth, { event: 'APPROVED' });
  // An approval writes no status: the worker sees it at its next look (every 200 ms here).
  await eventually(async () => (await getPull(app, f.repo, f.pr.number)).merged, 'the merge once the rule is met');
});

test('200: merge_when_checks_succeed merges at once when the statuses already succeed', async () => {
  const f = await pullFixture(app, r);
  await report(app, r.writer.auth, f.repo, f.head, { state: 'success', context: 'ci' });
  const res = await mergePull(app, f.repo, r.writer.auth, f.pr.number, { Do: 'merge', merge_when_checks_succeed: true });
  assert.is(res.response.status, 200);
  assert.is((await getPull(app, f.repo, f.pr.number)).merged, true);
});

test('a failing status keeps the merge waiting; a new head commit with green statuses is merged', async () => {
  const f = await pullFixture(app, r);
  await schedule(f);
  await report(app, r.writer.auth, f.repo, f.head, { state: 'failure', context: 'ci' });
  await new Promise((res) => setTimeout(res, 600));
  assert.is((await getPull(app, f.repo, f.pr.number)).merged, false);
  const next = await disk.commit(f.dir, f.branch, { 'fix.txt': 'fixed\n' });
  await report(app, r.writer.auth, f.repo, next, { state: 'success', context: 'ci' });
  const merged = await eventually(async () => {
    const pr = await getPull(app, f.repo, f.pr.number);
    return pr.merged && pr;
  }, 'the merge after the fix');
  assert.ok(await disk.file(f.dir, 'main', 'fix.txt'));
  assert.is(merged.state, 'closed');
});

test('204: the scheduler cancels; 403 for another writer, 204 for a repository admin; 404 when nothing is scheduled', async () => {
  const f = await pullFixture(app, r);
  assert.is((await cancel(f, r.writer.auth)).response.status, 404, 'nothing scheduled');
  await schedule(f);
  const other = await cancel(f, r.reader.auth);
  assert.is(other.response.status, 403, 'a reader who did not schedule it');
  assertSpec('repoCancelScheduledAutoMerge', other);
  const ok = await cancel(f, r.writer.auth);
  assert.is(ok.response.status, 204);
  assertSpec('repoCancelScheduledAutoMerge', ok);
  assert.is((await cancel(f, r.writer.auth)).response.status, 404, 'cancelled already');

  await schedule(f);
  assert.is((await cancel(f, r.owner.auth)).response.status, 204, 'the owner (admin) cancels the writer\'s schedule');
  // Once cancelled, green statuses merge nothing.
  await report(app, r.writer.auth, f.repo, f.head, { state: 'success', context: 'ci' });
  await new Promise((res) => setTimeout(res, 600));
  assert.is((await getPull(app, f.repo, f.pr.number)).merged, false);
});

test('404 once the pull request is closed: closing removes its scheduled merge (reopening does not bring it back)', async () => {
  const f = await pullFixture(app, r);
  await schedule(f);
  const closed = await app.client(r.writer.auth).PATCH('/repos/{owner}/{repo}/pulls/{index}', { params: { path: { ...f.repo.path, index: f.pr.number } }, body: { state: 'closed' } });
  assert.is(closed.response.status, 201);
  const rows = await app.services.deps.db.select().from(pullAutoMerges).where(eq(pullAutoMerges.pullId, f.pr.id));
  assert.equal(rows, [], 'removed in the close');
  assert.is((await cancel(f, r.writer.auth)).response.status, 404);
  const reopened = await app.client(r.writer.auth).PATCH('/repos/{owner}/{repo}/pulls/{index}', { params: { path: { ...f.repo.path, index: f.pr.number } }, body: { state: 'open' } });
  assert.is(reopened.response.status, 201);
  assert.is((await cancel(f, r.writer.auth)).response.status, 404, 'still not scheduled');
  assert.is((await getPull(app, f.repo, f.pr.number)).merged, false);
});

test('401 anonymous, 403 wrong token scope, 404 invisible repository or no such pull, 423 archived', async () => {
  const f = await pullFixture(app, r, { priv: true });
  await schedule(f);
  assert.is((await cancel(f, undefined)).response.status, 401);
  assert.is((await cancel(f, await wrongScope(app, r.writer, true))).response.status, 403);
  assert.is((await cancel(f, r.outsider.auth)).response.status, 404);
  assert.is((await cancel(f, r.writer.auth, 999)).response.status, 404);
  await setArchived(app, f.repo, r.owner);
  assert.is((await cancel(f, r.writer.auth)).response.status, 423);
});

test.run();
