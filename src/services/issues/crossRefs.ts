// Cross references (#38), as Gitea's models/issues/issue_xref.go and services/issue/commit.go: when an
// issue's title or body, a comment, or a pushed commit's message mentions another issue, that issue's
// timeline gets an `issue_ref`/`pull_ref`/`comment_ref`/`commit_ref` entry, written in the transaction of
// the change that made the mention. Only issues the actor can read are referenced; `closes`/`reopens`
// is kept only from a pull request to an issue, and only when the actor could close it by hand.
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { comments, issues, repositories, users, type CommentRow, type IssueRow, type RepoRow, type UserRow } from '../../db/schema/index.js';
import { canRead, canWrite, type RepoPermission } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import type { DomainEvent, PushCommit } from '../events/types.js';
import { AccessService } from '../repos/access.js';
import { findIssueReferences, findIssueReferencesMarkdown, keywordPatterns, upToMaxTargets, type IssueReference, type XRefAction } from './references.js';

const unit = (isPull: boolean) => (isPull ? ('repo.pulls' as const) : ('repo.issues' as const));
/** Gitea's CanWriteIssuesOrPulls (and the owner and administrators, who write everything). */
const canClose = (perm: RepoPermission, isPull: boolean) => canWrite(perm, unit(isPull));

/** Statements of at most 500 rows or ids (PostgreSQL takes 65,535 parameters a statement). */
function chunks<T>(all: T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < all.length; i += size) out.push(all.slice(i, i + size));
  return out;
}

interface Target {
  issue: IssueRow;
  action: XRefAction;
}

/** Resolves references to existing issues with the actor's permission on each repository (read once per repository). */
class Resolver {
  private readonly repos = new Map<string, { repo: RepoRow; owner: UserRow; perm: RepoPermission } | null>();
  private readonly access: AccessService;
  constructor(
    deps: ServiceDeps,
    private readonly tx: Db,
    private readonly actor: UserRow,
    private readonly home: { repo: RepoRow; owner: UserRow },
  ) {
    this.access = new AccessService(deps);
  }

  async repo(ref: IssueReference) {
    const key = ref.owner ? `${ref.owner}/${ref.name}` : '';
    if (!this.repos.has(key)) {
      let found: { repo: RepoRow; owner: UserRow } | undefined = this.home;
      if (key) {
        const [row] = await this.tx.select({ repo: repositories, owner: users }).from(repositories).innerJoin(users, eq(users.id, repositories.ownerId))
          .where(and(eq(users.lowerName, ref.owner), eq(repositories.lowerName, ref.name)));
        found = row;
      }
      this.repos.set(key, found ? { ...found, perm: await this.access.repoPermissionIn(this.tx, found.repo, found.owner, this.actor) } : null);
    }
    return this.repos.get(key) ?? undefined;
  }

  /**
   * The issues the references name that exist and the actor may read, each with its repository: one
   * query per repository, whatever the number of references (a text may name thousands).
   */
  async issues(refs: IssueReference[]): Promise<Map<IssueReference, { issue: IssueRow; repo: { repo: RepoRow; owner: UserRow; perm: RepoPermission } }>> {
    const out = new Map<IssueReference, { issue: IssueRow; repo: { repo: RepoRow; owner: UserRow; perm: RepoPermission } }>();
    const byRepo = new Map<string, IssueReference[]>();
    for (const ref of refs) {
      const key = ref.owner ? `${ref.owner}/${ref.name}` : '';
      if (!byRepo.has(key) && byRepo.size >= maxRepos) continue;
      const list = byRepo.get(key);
      if (list) list.push(ref);
      else byRepo.set(key, [ref]);
    }
    for (const list of byRepo.values()) {
      const r = await this.repo(list[0]!);
      if (!r) continue;
      const indexes = [...new Set(list.map((l) => l.index))].slice(0, maxIssuesPerRepo);
      const found = await this.tx.select().from(issues).where(and(eq(issues.repoId, r.repo.id), inArray(issues.index, indexes)));
      const byIndex = new Map(found.map((i) => [i.index, i]));
      for (const ref of list) {
        const issue = byIndex.get(ref.index);
        if (issue && canRead(r.perm, unit(issue.isPull))) out.set(ref, { issue, repo: r });
      }
    }
    return out;
  }
}

/**
 * What one text may reference: 50 repositories (its own counts) and 1,000 issues of each; further ones
 * are not looked up (a hostile body could otherwise hold the transaction with thousands of queries).
 */
const maxRepos = 50;
const maxIssuesPerRepo = 1_000;

/** The references a text makes, as addCrossReferences looks them up. */
function referencesIn(deps: ServiceDeps, text: { plain: string; markdown: string }): IssueReference[] {
  const rootUrl = deps.config.rootUrl;
  const keywords = keywordPatterns(deps.config.issueKeywords);
  return upToMaxTargets([...findIssueReferences(text.plain, rootUrl, [], keywords), ...findIssueReferencesMarkdown(text.markdown, rootUrl, keywords)]);
}

/** Whether addCrossReferences of a new text (not an edit) would have anything to look up: no reference, nothing written. */
export const makesReferences = (deps: ServiceDeps, text: { plain: string; markdown: string }) => referencesIn(deps, text).length > 0;

/**
 * Gitea's createCrossReferences: the issues `origin` (with `comment`, a comment of it) now references, each
 * getting its entry. With `removeOld` (an edit), references the text no longer makes are neutered and those
 * it still makes are not repeated.
 */
export async function addCrossReferences(
  deps: ServiceDeps, tx: Db, actor: UserRow,
  origin: { issue: IssueRow; repo: RepoRow; owner: UserRow; comment?: CommentRow },
  text: { plain: string; markdown: string }, removeOld: boolean,
): Promise<void> {
  const refs = referencesIn(deps, text);
  const resolver = new Resolver(deps, tx, actor, origin);
  const resolved = await resolver.issues(refs);
  let list: Target[] = [];
  const byIssue = new Map<number, Target>();
  for (const ref of refs) {
    const found = resolved.get(ref);
    if (!found || found.issue.id === origin.issue.id) continue;
    let action = ref.action;
    // Close and reopen go only from a pull request to an issue, and only for whoever could do it by hand
    // (a new pull request's poster in the same repository excepted: its merger decides).
    if (found.issue.isPull || !origin.issue.isPull) action = 'none';
    if (action !== 'none' && actor.id !== found.issue.posterId && !canClose(found.repo.perm, found.issue.isPull)
      && (found.issue.repoId !== origin.issue.repoId || origin.comment)) action = 'none';
    const seen = byIssue.get(found.issue.id);
    if (seen) {
      if (action !== 'none') seen.action = action;
    } else {
      const t = { issue: found.issue, action };
      byIssue.set(found.issue.id, t);
      list.push(t);
    }
  }
  const commentId = origin.comment?.id ?? null;
  if (removeOld) {
    const active = await activeReferences(tx, origin.issue.id, commentId);
    const stale: number[] = [];
    const kept = new Set<Target>();
    for (const c of active) {
      const same = byIssue.get(c.issueId);
      if (same && same.action === c.refAction && !kept.has(same)) kept.add(same);
      else stale.push(c.id);
    }
    list = list.filter((t) => !kept.has(t));
    for (const part of chunks(stale)) await tx.update(comments).set({ refAction: 'neutered' }).where(inArray(comments.id, part));
  }
  if (list.length === 0) return;
  const type = origin.comment ? 'comment_ref' : origin.issue.isPull ? 'pull_ref' : 'issue_ref';
  const now = new Date();
  for (const part of chunks(list)) {
    await tx.insert(comments).values(part.map((t) => ({
      issueId: t.issue.id, repoId: t.issue.repoId, posterId: actor.id, type, refIssueId: origin.issue.id, refCommentId: commentId, refAction: t.action,
      createdAt: now, updatedAt: now,
    } as const)));
    // As Gitea's CreateComment: the referenced issue was updated.
    await tx.update(issues).set({ updatedAt: now }).where(inArray(issues.id, part.map((t) => t.issue.id)));
  }
}

/** The references an issue (commentId null) or one of its comments made that still act. */
function activeReferences(tx: Db, issueId: number, commentId: number | null) {
  return tx.select({ id: comments.id, issueId: comments.issueId, refAction: comments.refAction }).from(comments)
    .where(and(
      eq(comments.refIssueId, issueId),
      commentId === null ? isNull(comments.refCommentId) : eq(comments.refCommentId, commentId),
      inArray(comments.refAction, ['none', 'closes', 'reopens']),
    ));
}

/** A deleted comment's references stop acting (Gitea's neuterCrossReferences); their entries stay. */
export async function neuterCrossReferences(tx: Db, issueId: number, commentId: number): Promise<void> {
  const active = await activeReferences(tx, issueId, commentId);
  for (const part of chunks(active)) await tx.update(comments).set({ refAction: 'neutered' }).where(inArray(comments.id, part.map((c) => c.id)));
}

/** Gitea's `<a href="/owner/repo/commit/sha">first line</a>`: the entry's text of a commit reference. */
function commitLink(rootUrl: string, owner: UserRow, repo: RepoRow, c: PushCommit): string {
  const esc = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&#34;').replaceAll("'", '&#39;');
  let base = '';
  try {
    base = new URL(rootUrl).pathname.replace(/\/+$/, '');
  } catch {
    base = '';
  }
  return `<a href="${esc(`${base}/${owner.name}/${repo.name}`)}/commit/${esc(encodeURIComponent(c.id))}">${esc(c.message.split('\n', 1)[0] ?? '')}</a>`;
}

/** An issue a pushed commit's message references, as addCommitReferences hands it on (after its entry). */
export interface CommitReference {
  commit: PushCommit;
  issue: IssueRow;
  action: XRefAction;
  /** The issue's repository, with the pusher's permission on it. */
  target: { repo: RepoRow; owner: UserRow; perm: RepoPermission };
}

/**
 * Gitea's UpdateIssuesCommit (the reference half): each pushed commit whose message mentions an issue the
 * pusher can read adds a `commit_ref` entry to it, once per commit and issue. Oldest commit first; each
 * reference (once per commit, issue and action) is then handed to `then`, in the same order, so that what
 * acts on it (closing, closeByReference.ts) follows its entry as in Gitea.
 */
export async function addCommitReferences(
  deps: ServiceDeps, tx: Db, pusher: UserRow, home: { repo: RepoRow; owner: UserRow }, commits: PushCommit[],
  then?: (ref: CommitReference) => Promise<void>,
): Promise<void> {
  const resolver = new Resolver(deps, tx, pusher, home);
  const keywords = keywordPatterns(deps.config.issueKeywords);
  for (const c of [...commits].reverse()) {
    const marked = new Set<string>();
    const refs = findIssueReferences(c.message, deps.config.rootUrl, [], keywords);
    const resolved = await resolver.issues(refs);
    for (const ref of refs) {
      const found = resolved.get(ref);
      if (!found) continue;
      const key = `${found.issue.id}:${ref.action}`;
      if (marked.has(key)) continue;
      marked.add(key);
      // Once per issue and commit whatever pushes it (two branches, two processes): the unique index
      // comments_commit_ref_uq decides, a concurrent insert waits for the first and then adds nothing.
      // Created at the transaction's time, as the close that may follow it (entries of one time go by id).
      const made = await tx.insert(comments).values({
        issueId: found.issue.id, repoId: found.issue.repoId, posterId: pusher.id, type: 'commit_ref', commitSha: c.id,
        body: commitLink(deps.config.rootUrl, home.owner, home.repo, c),
      }).onConflictDoNothing({ target: [comments.issueId, comments.commitSha], where: sql`type = 'commit_ref'` }).returning({ id: comments.id });
      if (made.length) await tx.update(issues).set({ updatedAt: new Date() }).where(eq(issues.id, found.issue.id));
      await then?.({ commit: c, issue: found.issue, action: ref.action, target: found.repo });
    }
  }
}

// A push to a branch whose commits mention issues: their commit references, in the push's transaction
// (closeByReference.ts registers the fan-out, which also closes and reopens).
const mentionsIssue = /[#!][0-9]/;
export const pushesWithRefs = (list: DomainEvent[]) =>
  list.filter((e) => e.type === 'push' && e.ref.startsWith('refs/heads/') && e.commits.some((c) => mentionsIssue.test(c.message) || c.message.includes('/issues/') || c.message.includes('/pulls/')));
