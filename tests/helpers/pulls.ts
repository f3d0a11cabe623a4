// Factories for the pull request tests: branch content made through POST diffpatch, pull requests made
// through the API, and what git itself says about two branches (to check the stored statistics).
import * as assert from 'uvu/assert';
import type { components } from '../../generated/openapi.js';
import type { TestApp } from './harness.js';
import { dirOf, disk, repoFor, type Roles } from './gitFixtures.js';
import { pathOf, type Actor, type Repository } from './repos.js';

export type PullRequest = components['schemas']['PullRequest'];

/** A patch adding `path` with `lines`. */
export const addFile = (path: string, lines: string[]) =>
  `diff --git a/${path} b/${path}\nnew file mode 100644\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}\n`).join('')}`;

/** A patch replacing the one-line file `path` (`from` → `to`). */
export const changeLine = (path: string, from: string, to: string) =>
  `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-${from}\n+${to}\n`;

/** POST diffpatch: `content` committed onto `branch`, or onto a new branch `newBranch` made from it. Answers the commit id. */
export async function patch(app: TestApp, repo: Repository, as: Actor, content: string, opts: { branch?: string; newBranch?: string } = {}): Promise<string> {
  const res = await app.client(as.auth).POST('/repos/{owner}/{repo}/diffpatch', {
    params: { path: pathOf(repo) },
    body: { content, branch: opts.branch ?? 'main', ...(opts.newBranch ? { new_branch: opts.newBranch } : {}) },
  });
  assert.is(res.response.status, 201, `diffpatch: ${JSON.stringify(res.error)}`);
  return res.data!.commit.sha;
}

export async function openPull(
  app: TestApp, repo: Repository, as: Actor, head: string, extra: Partial<components['schemas']['CreatePullRequestOption']> = {},
): Promise<PullRequest> {
  const res = await app.client(as.auth).POST('/repos/{owner}/{repo}/pulls', {
    params: { path: pathOf(repo) },
    body: { head, base: 'main', title: `pull ${head}`, ...extra },
  });
  assert.is(res.response.status, 201, `POST pulls: ${JSON.stringify(res.error)}`);
  return res.data!;
}

/** What git says about base...head: merge base, tips and the `git diff --numstat` totals (binary files: 0 lines). */
export async function gitCompare(app: TestApp, repo: Repository, base: string, head: string) {
  const dir = dirOf(app, repo);
  const baseSha = (await disk.tip(dir, base))!;
  const headSha = (await disk.tip(dir, head))!;
  const mergeBase = (await disk.run(dir, ['merge-base', baseSha, headSha])).trim();
  const lines = (await disk.run(dir, ['diff', '--numstat', `${baseSha}...${headSha}`])).split('\n').filter(Boolean);
  const sum = (col: 0 | 1) => lines.reduce((n, l) => n + (l.split('\t')[col] === '-' ? 0 : Number(l.split('\t')[col])), 0);
  return { baseSha, headSha, mergeBase, additions: sum(0), deletions: sum(1), changed_files: lines.length };
}

/** Asserts that the pull request's branches and statistics are git's for its base and head. */
export async function assertMatchesGit(app: TestApp, repo: Repository, pr: PullRequest, what = 'statistics'): Promise<void> {
  const g = await gitCompare(app, repo, pr.base.label, pr.head.label);
  assert.equal(
    { base: pr.base.sha, head: pr.head.sha, merge_base: pr.merge_base, additions: pr.additions, deletions: pr.deletions, changed_files: pr.changed_files },
    { base: g.baseSha, head: g.headSha, merge_base: g.mergeBase, additions: g.additions, deletions: g.deletions, changed_files: g.changed_files },
    what,
  );
}

export type MergeBody = components['schemas']['MergePullRequestOption'];

/** POST .../pulls/{index}/merge; answers the raw response (its status is what the tests check). */
export const mergePull = (app: TestApp, repo: Repository, auth: string | undefined, index: number, body: MergeBody) =>
  app.client(auth).POST('/repos/{owner}/{repo}/pulls/{index}/merge', { params: { path: { ...pathOf(repo), index } }, body });

/** GET .../pulls/{index}/merge: 204 merged, 404 not. */
export const isMerged = async (app: TestApp, repo: Repository, index: number, auth?: string) =>
  (await app.client(auth).GET('/repos/{owner}/{repo}/pulls/{index}/merge', { params: { path: { ...pathOf(repo), index } } })).response.status;

export async function getPull(app: TestApp, repo: Repository, index: number, auth?: string): Promise<PullRequest> {
  const res = await app.client(auth).GET('/repos/{owner}/{repo}/pulls/{index}', { params: { path: { ...pathOf(repo), index } } });
  assert.is(res.response.status, 200, `GET pull ${index}`);
  return res.data!;
}

/** `git log --format=%H %P` of `rev`: each commit with its parents, newest first (the graph the tests compare). */
export async function graphOf(dir: string, rev: string, max = 20): Promise<string[][]> {
  const out = await disk.run(dir, ['log', `--max-count=${max}`, '--format=%H %P', rev]);
  return out.split('\n').filter(Boolean).map((l) => l.split(' '));
}

/** The tree `git merge-tree --write-tree` makes of two commits (what a clean merge must produce). */
export async function expectedMergeTree(dir: string, a: string, b: string): Promise<string> {
  return (await disk.run(dir, ['merge-tree', '--write-tree', a, b])).split('\n')[0]!.trim();
}

export const treeOfRev = async (dir: string, rev: string) => (await disk.run(dir, ['rev-parse', `${rev}^{tree}`])).trim();

let fixtures = 0;

/**
 * A repository of `r.owner` (writer and reader collaborators) whose main has f.txt, a branch `topicN` with
 * two commits by the writer (a.txt, b.txt), and the writer's open pull request of it; `diverge` adds a
 * commit to main too (m.txt). Answers the tips of both branches as they were when it was opened.
 */
export async function pullFixture(app: TestApp, r: Roles, opts: { diverge?: boolean; priv?: boolean } = {}) {
  const made = await repoFor(app, r, { private: !!opts.priv });
  const repo = { ...made, path: pathOf(made) };
  await patch(app, repo, r.writer, addFile('f.txt', ['base']));
  const branch = `topic${fixtures++}`;
  await patch(app, repo, r.writer, addFile('a.txt', ['1']), { newBranch: branch });
  await patch(app, repo, r.writer, addFile('b.txt', ['2']), { branch });
  if (opts.diverge) await patch(app, repo, r.writer, addFile('m.txt', ['main']));
  const pr = await openPull(app, repo, r.writer, branch, { title: 'Add a and b' });
  const dir = dirOf(app, repo);
  return { repo, pr, dir, branch, base: (await disk.tip(dir, 'main'))!, head: (await disk.tip(dir, branch))! };
}

export type PullReview = components['schemas']['PullReview'];
type Target = { repo: Repository; pr: { number: number } };

/** POST .../reviews (the raw response). */
export const createReview = (app: TestApp, f: Target, auth: string | undefined, body: components['schemas']['CreatePullReviewOptions']) =>
  app.client(auth).POST('/repos/{owner}/{repo}/pulls/{index}/reviews', { params: { path: { ...pathOf(f.repo), index: f.pr.number } }, body });

/** A review that must succeed. */
export async function review(app: TestApp, f: Target, auth: string, body: components['schemas']['CreatePullReviewOptions']): Promise<PullReview> {
  const res = await createReview(app, f, auth, body);
  assert.is(res.response.status, 200, `review: ${JSON.stringify(res.error)}`);
  return res.data!;
}

/** POST or DELETE .../requested_reviewers (the raw response). */
export const requestReviews = (app: TestApp, f: Target, auth: string | undefined, body: components['schemas']['PullReviewRequestOptions'], remove = false) =>
  remove
    ? app.client(auth).DELETE('/repos/{owner}/{repo}/pulls/{index}/requested_reviewers', { params: { path: { ...pathOf(f.repo), index: f.pr.number } }, body })
    : app.client(auth).POST('/repos/{owner}/{repo}/pulls/{index}/requested_reviewers', { params: { path: { ...pathOf(f.repo), index: f.pr.number } }, body });

export type BranchProtection = components['schemas']['BranchProtection'];

/** POST .../branch_protections as `auth` (the raw response). */
export const protect = (app: TestApp, repo: Repository, auth: string | undefined, body: components['schemas']['CreateBranchProtectionOption']) =>
  app.client(auth).POST('/repos/{owner}/{repo}/branch_protections', { params: { path: pathOf(repo) }, body });

/** A rule that must be created. */
export async function protectOk(app: TestApp, repo: Repository, auth: string, body: components['schemas']['CreateBranchProtectionOption']): Promise<BranchProtection> {
  const res = await protect(app, repo, auth, body);
  assert.is(res.response.status, 201, `protect: ${JSON.stringify(res.error)}`);
  return res.data!;
}

/** A line comment on a.txt of a pullFixture's pull request, in a review by `auth` (`pending` keeps the review pending). Answers its id and the review's. */
export async function lineComment(app: TestApp, f: Target, auth: string, opts: { pending?: boolean } = {}): Promise<{ id: number; reviewId: number }> {
  const made = await review(app, f, auth, { ...(opts.pending ? {} : { event: 'COMMENT' }), body: 'see line', comments: [{ path: 'a.txt', body: 'why 1?', new_position: 1 }] });
  const listed = await app.client(auth).GET('/repos/{owner}/{repo}/pulls/{index}/reviews/{id}/comments', { params: { path: { ...pathOf(f.repo), index: f.pr.number, id: made.id } } });
  assert.is(listed.response.status, 200);
  return { id: listed.data![0]!.id, reviewId: made.id };
}

/** POST …/pulls/comments/{id}/resolve or /unresolve (the raw response). */
export const markConversation = (app: TestApp, repo: Repository, id: number, auth: string | undefined, resolve: boolean) =>
  resolve
    ? app.client(auth).POST('/repos/{owner}/{repo}/pulls/comments/{id}/resolve', { params: { path: { ...pathOf(repo), id } } })
    : app.client(auth).POST('/repos/{owner}/{repo}/pulls/comments/{id}/unresolve', { params: { path: { ...pathOf(repo), id } } });

/** The resolver's login of a line comment (null: open), as repoGetPullReviewComments shows it. */
export async function resolverOf(app: TestApp, f: Target, reviewId: number, id: number, auth: string): Promise<string | null> {
  const listed = await app.client(auth).GET('/repos/{owner}/{repo}/pulls/{index}/reviews/{id}/comments', { params: { path: { ...pathOf(f.repo), index: f.pr.number, id: reviewId } } });
  assert.is(listed.response.status, 200);
  return listed.data!.find((c) => c.id === id)!.resolver?.login ?? null;
}
