// Pull requests from a fork to its parent (Gitea's parseCompareInfo): created with head `owner:branch` or
// `owner/repo:branch`, the fork's commits fetched into the parent as refs/pull/N/head (so git fetches them
// from the parent), following pushes to the fork's branch, merged from the parent alone, the fork's branch
// deleted after the merge only for someone who may write the fork, updated with the base only by the fork's
// writers or (allow_maintainer_edit) the base's; a deleted fork closes its open pull requests.
import { and, eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../helpers/harness.js';
import { dirOf, disk, roles, type Roles } from '../helpers/gitFixtures.js';
import { eventsOf, gitWorkspace } from '../helpers/events.js';
import { fork } from '../helpers/forks.js';
import { addFile, getPull, mergePull, patch, type PullRequest } from '../helpers/pulls.js';
import { actor, addCollaborator, messageOf, pathOf, type Actor, type Repository } from '../helpers/repos.js';
import { assertSpec } from '../helpers/spec-check.js';
import { hookBody, repoHook } from '../helpers/hooks.js';
import { hookDeliveries } from '../../src/db/schema/index.js';

let app: TestApp;
let r: Roles;
let contrib: Actor;
let parent: Repository & { path: { owner: string; repo: string } };
let forked: Repository & { path: { owner: string; repo: string } };
let git: ReturnType<typeof gitWorkspace>;
let hookId: number;

const withPath = (repo: Repository) => ({ ...repo, path: pathOf(repo) });

const create = (as: string | undefined, head: string, base = 'main', repo = parent) =>
  app.client(as).POST('/repos/{owner}/{repo}/pulls', { params: { path: repo.path }, body: { head, base, title: `from ${head}` } });

async function open(head: string, base = 'main'): Promise<PullRequest> {
  const res = await create(contrib.auth, head, base);
  assert.is(res.response.status, 201, `POST pulls: ${JSON.stringify(res.error)}`);
  assertSpec('repoCreatePullRequest', res);
  return res.data!;
}

/** A branch of the fork with one new file, made through diffpatch on the fork (a push event there). */
const forkBranch = (name: string, file: string) => patch(app, forked, contrib, addFile(file, [name]), { newBranch: name });

test.before(async () => {
  app = await startApp();
  r = await roles(app);
  contrib = await actor(app);
  const made = await app.client(r.owner.auth).POST('/user/repos', { body: { name: `up${Date.now() % 100000}`, auto_init: true } });
  assert.is(made.response.status, 201);
  parent = withPath(made.data!);
  await addCollaborator(app, parent, r.writer, 'write');
  await addCollaborator(app, parent, r.reader, 'read');
  forked = withPath(await fork(app, contrib, parent.path));
  // Its deliveries are recorded with the events (no worker sends them here).
  hookId = (await repoHook(app, r.owner.auth, parent.path, hookBody('http://127.0.0.1:9/hook', { events: ['pull_request'] }))).id;
  git = gitWorkspace(app);
});
test.after(async () => {
  git.close();
  await app.close();
});

test('201: head owner:branch names the fork; head.repo is the fork, the parent has refs/pull/N/head and git fetches it', async () => {
  const tip = await forkBranch('feature', 'feature.txt');
  const pr = await open(`${contrib.username}:feature`);
  assert.equal(
    { label: pr.head.label, ref: pr.head.ref, sha: pr.head.sha, repo_id: pr.head.repo_id, repo: pr.head.repo?.full_name },
    { label: `${contrib.username}:feature`, ref: 'feature', sha: tip, repo_id: forked.id, repo: forked.full_name },
  );
  assert.equal([pr.base.repo_id, pr.base.repo?.full_name, pr.base.label], [parent.id, parent.full_name, 'main']);
  assert.equal([pr.additions, pr.changed_files, pr.mergeable], [1, 1, true]);
  assert.is(await disk.rev(dirOf(app, parent), `refs/pull/${pr.number}/head`), tip);
  const [delivery] = await app.services.deps.db.select().from(hookDeliveries)
    .where(and(eq(hookDeliveries.hookId, hookId), eq(hookDeliveries.eventType, 'pull_request')));
  const payload = JSON.parse(delivery!.payload) as { action: string; pull_request: PullRequest };
  assert.equal([payload.action, payload.pull_request.head.repo?.full_name, payload.pull_request.head.label], ['opened', forked.full_name, `${contrib.username}:feature`]);
  // A plain git client fetches the pull request from the parent alone.
  const dir = await git.clone(git.remote(r.reader, parent.path.owner, parent.path.repo));
  await git.must(['fetch', '-q', 'origin', `refs/pull/${pr.number}/head`], dir);
  assert.is((await git.must(['rev-parse', 'FETCH_HEAD'], dir)).trim(), tip);

  const listed = await app.client(r.reader.auth).GET('/repos/{owner}/{repo}/pulls', { params: { path: parent.path } });
  assert.is(listed.response.status, 200);
  assertSpec('repoListPullRequests', listed);
  assert.is(listed.data!.find((p) => p.number === pr.number)?.head.repo?.full_name, forked.full_name);
  const byHead = await app.client(r.reader.auth).GET('/repos/{owner}/{repo}/pulls/{base}/{head}', {
    params: { path: { ...parent.path, base: 'main', head: `${contrib.username}:feature` } },
  });
  assert.is(byHead.response.status, 200);
  assert.is(byHead.data!.number, pr.number);
  const sameName = await app.client(r.reader.auth).GET('/repos/{owner}/{repo}/pulls/{base}/{head}', { params: { path: { ...parent.path, base: 'main', head: 'feature' } } });
  assert.is(sameName.response.status, 404, 'the parent has no branch feature of its own');

  // 409 for a second one, named in the owner/repo:branch form; the message names both repositories.
  const dup = await create(contrib.auth, `${forked.full_name}:feature`);
  assert.is(dup.response.status, 409);
  assert.match(messageOf(dup.error), `head_repo_id: ${forked.id}, base_repo_id: ${parent.id}, head_branch: feature, base_branch: main`);
});

test('a push to the fork\'s branch over git HTTP: the pull request follows (head sha, statistics, refs/pull/N/head, pull_request_sync)', async () => {
  await forkBranch('pushed', 'pushed.txt');
  const pr = await open(`${contrib.username}:pushed`);
  const dir = await git.clone(git.remote(contrib, forked.path.owner, forked.path.repo));
  await git.must(['checkout', '-q', 'pushed'], dir);
  const tip = await git.commit(dir, 'second.txt', 'two\nlines\n', 'second commit');
  await git.must(['push', '-q', 'origin', 'pushed'], dir);
  const now = await getPull(app, parent, pr.number, r.reader.auth);
  assert.equal([now.head.sha, now.additions, now.changed_files], [tip, 3, 2]);
  assert.is(await disk.rev(dirOf(app, parent), `refs/pull/${pr.number}/head`), tip);
  const sync = (await eventsOf(app, parent.id)).rows.filter((e) => e.type === 'pull_request_sync');
  assert.ok(sync.some((e) => e.data.after === tip), 'pull_request_sync recorded in the parent');

  // 422 for a branch with no history in common with the base (pushed over git too).
  await git.must(['checkout', '-q', '--orphan', 'lone'], dir);
  await git.commit(dir, 'lone.txt', 'alone\n', 'a root');
  await git.must(['push', '-q', 'origin', 'lone'], dir);
  const lone = await create(contrib.auth, `${contrib.username}:lone`);
  assert.is(lone.response.status, 422);
});

test('404s: unknown owner, repository or branch, an owner without a fork, an unrelated repository, a fork the caller cannot read; 401 anonymous', async () => {
  assert.is((await create(contrib.auth, 'nosuchuser:feature')).response.status, 404);
  assert.is((await create(contrib.auth, `${contrib.username}/nosuchrepo:feature`)).response.status, 404);
  assert.is((await create(contrib.auth, `${contrib.username}:nosuchbranch`)).response.status, 404);
  assert.is((await create(contrib.auth, `${r.outsider.username}:main`)).response.status, 404, 'no fork of the base');
  const unrelated = await app.client(contrib.auth).POST('/user/repos', { body: { name: `other${Date.now() % 100000}`, auto_init: true } });
  assert.is((await create(contrib.auth, `${unrelated.data!.full_name}:main`)).response.status, 404, 'not a fork of the base');
  // A sibling fork (another fork of the same parent) is not accepted as the head of a pull request into a fork.
  const sibling = withPath(await fork(app, r.outsider, parent.path));
  assert.is((await create(r.outsider.auth, `${contrib.username}:feature`, 'main', sibling)).response.status, 404);
  assert.is((await create(undefined, `${contrib.username}:feature`)).response.status, 401);

  // A private fork: a reader of the parent who cannot read the fork gets 404, and sees its pull requests' head repository still.
  const priv = await app.client(r.writer.auth).POST('/repos/{owner}/{repo}/forks', { params: { path: parent.path }, body: { name: 'privfork' } });
  assert.is(priv.response.status, 202);
  const privFork = withPath(priv.data!);
  assert.is((await app.client(r.writer.auth).PATCH('/repos/{owner}/{repo}', { params: { path: privFork.path }, body: { private: true } })).response.status, 200);
  await patch(app, privFork, r.writer, addFile('secret.txt', ['s']), { newBranch: 'secret' });
  assert.is((await create(r.reader.auth, `${r.writer.username}:secret`)).response.status, 404, 'the reader cannot read the fork');
  const ok = await create(r.writer.auth, `${r.writer.username}:secret`);
  assert.is(ok.response.status, 201, 'its owner can');
  const seen = await getPull(app, parent, ok.data!.number, r.reader.auth);
  assert.is(seen.head.repo_id, privFork.id);
  assert.is((await app.client().GET('/repos/{owner}/{repo}/pulls/{index}', { params: { path: { ...parent.path, index: ok.data!.number } } })).response.status, 200, 'anonymous reads the public parent');
});

test('merge and squash: the parent\'s main gets the fork\'s commits; the fork\'s branch is deleted only by someone who may write the fork', async () => {
  const head1 = await forkBranch('m1', 'm1.txt');
  const pr1 = await open(`${contrib.username}:m1`);
  // The parent's owner may not write the fork: the merge stands, the fork's branch stays.
  const merged = await mergePull(app, parent, r.owner.auth, pr1.number, { Do: 'merge', delete_branch_after_merge: true });
  assert.is(merged.response.status, 200, JSON.stringify(merged.error));
  const parentDir = dirOf(app, parent);
  const main = (await disk.tip(parentDir, 'main'))!;
  await disk.run(parentDir, ['merge-base', '--is-ancestor', head1, main]);
  assert.equal((await disk.run(parentDir, ['log', '-1', '--format=%P', main])).trim().split(' ')[1], head1, 'a merge commit of the fork\'s head');
  assert.is(await disk.tip(dirOf(app, forked), 'm1'), head1, 'the fork\'s branch stays');
  assert.is((await getPull(app, parent, pr1.number)).merged, true);

  // A writer of both repositories squashes: the fork's branch goes.
  await addCollaborator(app, forked, r.writer, 'write');
  await forkBranch('m2', 'm2.txt');
  const pr2 = await open(`${contrib.username}:m2`);
  const squashed = await mergePull(app, parent, r.writer.auth, pr2.number, { Do: 'squash', delete_branch_after_merge: true });
  assert.is(squashed.response.status, 200, JSON.stringify(squashed.error));
  const main2 = (await disk.tip(parentDir, 'main'))!;
  assert.equal((await disk.run(parentDir, ['log', '-1', '--format=%P', main2])).trim(), main, 'one squash commit on main');
  assert.equal((await disk.files(parentDir, main2)).filter((f) => f.startsWith('m')), ['m1.txt', 'm2.txt']);
  assert.is(await disk.tip(dirOf(app, forked), 'm2'), undefined, 'the fork\'s branch deleted');
});

test('POST .../update writes the fork\'s branch: 403 for a base writer unless the poster allows maintainer edits, then 200', async () => {
  await forkBranch('upd', 'upd.txt');
  const pr = await open(`${contrib.username}:upd`);
  await patch(app, parent, r.owner, addFile(`later${pr.number}.txt`, ['main moved']));
  const update = (auth: string) => app.client(auth).POST('/repos/{owner}/{repo}/pulls/{index}/update', { params: { path: { ...parent.path, index: pr.number }, query: {} } });
  assert.is((await update(r.owner.auth)).response.status, 403, 'the base\'s owner cannot write the fork');
  const allow = await app.client(contrib.auth).PATCH('/repos/{owner}/{repo}/pulls/{index}', {
    params: { path: { ...parent.path, index: pr.number } }, body: { allow_maintainer_edit: true },
  });
  assert.is(allow.response.status, 201);
  const res = await update(r.owner.auth);
  assert.is(res.response.status, 200, JSON.stringify(res.error));
  const forkTip = (await disk.tip(dirOf(app, forked), 'upd'))!;
  const parents = (await disk.run(dirOf(app, forked), ['log', '-1', '--format=%P', forkTip])).trim().split(' ');
  assert.is(parents[1], await disk.tip(dirOf(app, parent), 'main'), 'the base merged into the fork\'s branch');
  const now = await getPull(app, parent, pr.number);
  assert.equal([now.head.sha, now.merge_base], [forkTip, parents[1]], 'the pull request followed');
});

test('deleting the fork closes its open pull requests; they still read, head repository null', async () => {
  const gone = withPath(await fork(app, r.reader, parent.path));
  await patch(app, gone, r.reader, addFile('bye.txt', ['bye']), { newBranch: 'bye' });
  const res = await create(r.reader.auth, `${r.reader.username}:bye`);
  assert.is(res.response.status, 201);
  const index = res.data!.number;
  assert.is((await app.client(r.reader.auth).DELETE('/repos/{owner}/{repo}', { params: { path: gone.path } })).response.status, 204);
  const read = await app.client(r.reader.auth).GET('/repos/{owner}/{repo}/pulls/{index}', { params: { path: { ...parent.path, index } } });
  assert.is(read.response.status, 200);
  assertSpec('repoGetPullRequest', read);
  assert.equal(
    { state: read.data!.state, repo: read.data!.head.repo, repo_id: read.data!.head.repo_id, ref: read.data!.head.ref, sha: read.data!.head.sha },
    { state: 'closed', repo: null, repo_id: -1, ref: `refs/pull/${index}/head`, sha: res.data!.head.sha },
  );
  const files = await app.client(r.reader.auth).GET('/repos/{owner}/{repo}/pulls/{index}/files', { params: { path: { ...parent.path, index } } });
  assert.equal(files.data!.map((f) => f.filename), ['bye.txt'], 'the diff still comes from refs/pull/N/head');

  // The parent's deletion leaves its forks whole.
  assert.is((await app.client(r.owner.auth).DELETE('/repos/{owner}/{repo}', { params: { path: parent.path } })).response.status, 204);
  const left = await app.client(contrib.auth).GET('/repos/{owner}/{repo}', { params: { path: forked.path } });
  assert.is(left.response.status, 200);
  assert.ok(await disk.tip(dirOf(app, forked), 'feature'), 'the fork keeps its branches');
});

test.run();
