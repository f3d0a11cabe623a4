// Factories for the pull request tests: branch content made through POST diffpatch, pull requests made
// through the API, and what git itself says about two branches (to check the stored statistics).
import * as assert from 'uvu/assert';
import type { components } from '../../generated/openapi.js';
import type { TestApp } from './harness.js';
import { dirOf, disk } from './gitFixtures.js';
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
