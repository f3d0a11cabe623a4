import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { disk, roles, setArchived, type Roles } from '../../helpers/gitFixtures.js';
import { editIssue, editRepo } from '../../helpers/issues.js';
import { addFile, changeLine, getPull, graphOf, mergePull, patch, pullFixture } from '../../helpers/pulls.js';
import { eventsOf } from '../../helpers/events.js';
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
const update = (f: Fixture, auth: string | undefined, style?: 'merge' | 'rebase', index = f.pr.number) =>
  app.client(auth).POST('/repos/{owner}/{repo}/pulls/{index}/update', { params: { path: { ...f.repo.path, index }, query: style ? { style } : {} } });

test('200 merge (default): a merge of the base into the head branch; the pull request is synchronized', async () => {
  const f = await pullFixture(app, r, { diverge: true });
  const res = await update(f, r.writer.auth);
  assert.is(res.response.status, 200);
  assertSpec('repoUpdatePullRequest', res);
  const tip = (await disk.tip(f.dir, f.branch))!;
  assert.equal((await graphOf(f.dir, tip, 1))[0], [tip, f.head, f.base]);
  assert.is((await disk.run(f.dir, ['log', '-1', '--format=%s', tip])).trim(), `Merge branch 'main' into ${f.branch}`);
  const pr = await getPull(app, f.repo, f.pr.number);
  assert.equal([pr.head.sha, pr.merge_base], [tip, f.base]);
  assert.ok((await eventsOf(app, f.repo.id)).kinds.includes('pull_request_sync/synchronized'));
  assert.is((await update(f, r.writer.auth)).response.status, 200, 'nothing more to bring');
  assert.is(await disk.tip(f.dir, f.branch), tip, 'and nothing written');
});

test('200 rebase: the head\'s commits replayed on the base; 403 when the repository does not allow it', async () => {
  const f = await pullFixture(app, r, { diverge: true });
  assert.is((await update(f, r.writer.auth, 'rebase')).response.status, 200);
  const tip = (await disk.tip(f.dir, f.branch))!;
  const graph = await graphOf(f.dir, tip, 3);
  assert.equal(graph.map((c) => c.length), [2, 2, 2], 'linear');
  assert.is(graph[2]![0], f.base);
  const g = await pullFixture(app, r, { diverge: true });
  await editRepo(app, g.repo, { allow_rebase_update: false });
  const denied = await update(g, r.writer.auth, 'rebase');
  assert.is(denied.response.status, 403);
  assertSpec('repoUpdatePullRequest', denied);
  assert.is(await disk.tip(g.dir, g.branch), g.head);
});

test('409 conflict (the head unchanged); 422 merged or closed', async () => {
  const f = await pullFixture(app, r);
  await patch(app, f.repo, r.writer, changeLine('f.txt', 'base', 'theirs'), { branch: f.branch });
  await patch(app, f.repo, r.writer, changeLine('f.txt', 'base', 'ours'));
  const head = await disk.tip(f.dir, f.branch);
  for (const style of ['merge', 'rebase'] as const) {
    const res = await update(f, r.writer.auth, style);
    assert.is(res.response.status, 409, style);
    assertSpec('repoUpdatePullRequest', res);
  }
  assert.is(await disk.tip(f.dir, f.branch), head);
  const c = await pullFixture(app, r, { diverge: true });
  await editIssue(app, c.repo, c.pr.number, r.writer, { state: 'closed' });
  assert.is((await update(c, r.writer.auth)).response.status, 422, 'closed');
  const m = await pullFixture(app, r, { diverge: true });
  assert.is((await mergePull(app, m.repo, r.writer.auth, m.pr.number, { Do: 'merge' })).response.status, 200);
  assert.is((await update(m, r.writer.auth)).response.status, 422, 'merged');
});

test('401 anonymous, 403 reader, 404 outsider of a private repository or no such pull, 423 archived', async () => {
  const f = await pullFixture(app, r, { priv: true, diverge: true });
  await patch(app, f.repo, r.writer, addFile('late.txt', ['x']));
  assert.is((await update(f, undefined)).response.status, 401);
  assert.is((await update(f, r.reader.auth)).response.status, 403);
  assert.is((await update(f, r.outsider.auth)).response.status, 404);
  assert.is((await update(f, r.writer.auth, undefined, 999)).response.status, 404);
  await setArchived(app, f.repo, r.owner);
  assert.is((await update(f, r.writer.auth)).response.status, 423);
  assert.is(await disk.tip(f.dir, f.branch), f.head);
});

test.run();
