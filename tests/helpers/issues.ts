// Factories for the issue, comment, label and milestone tests: one set of people per file (a repository
// owner, read and write collaborators, an outsider and the site admin), repositories they share, and
// issues, comments, labels and milestones made through the API. The people sign in with tokens.
import { and, asc, eq } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import type { components } from '../../generated/openapi.js';
import { comments, contentHistory, issues, type CommentType } from '../../src/db/schema/index.js';
import type { TestApp } from './harness.js';
import { actor, addCollaborator, pathOf, siteAdmin, userRepo, type Actor, type Repository } from './repos.js';

export type Issue = components['schemas']['Issue'];
export type Comment = components['schemas']['Comment'];
export type Label = components['schemas']['Label'];
export type Milestone = components['schemas']['Milestone'];
export type CreateIssueOption = components['schemas']['CreateIssueOption'];
export type EditIssueOption = components['schemas']['EditIssueOption'];

export interface People {
  /** Owns every repository of the world. */
  owner: Actor;
  /** Read collaborator: may open issues and comment, and edit what they posted. */
  reader: Actor;
  /** Write collaborator. */
  writer: Actor;
  /** Signed in, no grant. */
  outsider: Actor;
  admin: Actor;
}

export async function people(app: TestApp): Promise<People> {
  const [owner, reader, writer, outsider, admin] = await Promise.all([actor(app), actor(app), actor(app), actor(app), siteAdmin(app)]);
  return { owner, reader, writer, outsider, admin };
}

export interface Repo extends Repository {
  path: { owner: string; repo: string };
}

/** A repository of `p.owner` with `p.reader` and `p.writer` as collaborators. */
export async function sharedRepo(app: TestApp, p: People, opts: { private?: boolean } = {}): Promise<Repo> {
  const repo = await userRepo(app, p.owner, { private: !!opts.private });
  await Promise.all([addCollaborator(app, repo, p.reader, 'read'), addCollaborator(app, repo, p.writer, 'write')]);
  return { ...repo, path: pathOf(repo) };
}

/** PATCH /repos/{owner}/{repo} as the site admin (archive, switch units). */
export async function editRepo(app: TestApp, repo: Repo, body: components['schemas']['EditRepoOption']): Promise<void> {
  const r = await app.client((await siteAdmin(app)).auth).PATCH('/repos/{owner}/{repo}', { params: { path: repo.path }, body });
  assert.is(r.response.status, 200, `PATCH repo ${JSON.stringify(body)}: ${JSON.stringify(r.error)}`);
}

export async function newIssue(app: TestApp, repo: Repo, as: Actor, body: Partial<CreateIssueOption> = {}): Promise<Issue> {
  const r = await app.client(as.auth).POST('/repos/{owner}/{repo}/issues', { params: { path: repo.path }, body: { title: 'an issue', ...body } });
  assert.is(r.response.status, 201, `POST issue: ${JSON.stringify(r.error)}`);
  return r.data!;
}

export async function getIssue(app: TestApp, repo: Repo, index: number, as?: Actor) {
  const r = await app.client(as?.auth).GET('/repos/{owner}/{repo}/issues/{index}', { params: { path: { ...repo.path, index } } });
  assert.is(r.response.status, 200, `GET issue ${index}: ${r.response.status}`);
  return r.data!;
}

export async function editIssue(app: TestApp, repo: Repo, index: number, as: Actor, body: EditIssueOption): Promise<Issue> {
  const r = await app.client(as.auth).PATCH('/repos/{owner}/{repo}/issues/{index}', { params: { path: { ...repo.path, index } }, body });
  assert.is(r.response.status, 201, `PATCH issue ${JSON.stringify(body)}: ${JSON.stringify(r.error)}`);
  return r.data!;
}

export async function newComment(app: TestApp, repo: Repo, index: number, as: Actor, body = 'a comment'): Promise<Comment> {
  const r = await app.client(as.auth).POST('/repos/{owner}/{repo}/issues/{index}/comments', { params: { path: { ...repo.path, index } }, body: { body } });
  assert.is(r.response.status, 201, `POST comment: ${JSON.stringify(r.error)}`);
  return r.data!;
}

export async function newLabel(app: TestApp, repo: Repo, as: Actor, body: Partial<components['schemas']['CreateLabelOption']> = {}): Promise<Label> {
  const r = await app.client(as.auth).POST('/repos/{owner}/{repo}/labels', { params: { path: repo.path }, body: { name: 'bug', color: '#ee0701', ...body } });
  assert.is(r.response.status, 201, `POST label: ${JSON.stringify(r.error)}`);
  return r.data!;
}

export async function newMilestone(app: TestApp, repo: Repo, as: Actor, body: Partial<components['schemas']['CreateMilestoneOption']> = {}): Promise<Milestone> {
  const r = await app.client(as.auth).POST('/repos/{owner}/{repo}/milestones', { params: { path: repo.path }, body: { title: 'v1', ...body } });
  assert.is(r.response.status, 201, `POST milestone: ${JSON.stringify(r.error)}`);
  return r.data!;
}

export async function getMilestone(app: TestApp, repo: Repo, id: number | string, as?: Actor): Promise<Milestone> {
  const r = await app.client(as?.auth).GET('/repos/{owner}/{repo}/milestones/{id}', { params: { path: { ...repo.path, id: String(id) } } });
  assert.is(r.response.status, 200, `GET milestone ${id}: ${r.response.status}`);
  return r.data!;
}

/** The event comments (close, reopen, title change, ...) of an issue, oldest first. */
export async function eventComments(app: TestApp, issueId: number, type?: CommentType) {
  const rows = await app.services.deps.db.select().from(comments).where(eq(comments.issueId, issueId)).orderBy(asc(comments.id));
  return rows.filter((c) => c.type !== 'comment' && (!type || c.type === type));
}

/** Content history of an issue body (commentId 0) or a comment, oldest first. */
export async function historyOf(app: TestApp, issueId: number, commentId = 0) {
  return app.services.deps.db.select().from(contentHistory)
    .where(and(eq(contentHistory.issueId, issueId), eq(contentHistory.commentId, commentId)))
    .orderBy(asc(contentHistory.createdAt), asc(contentHistory.id));
}

/** Locks an issue (no operation under test does it). */
export async function lockIssue(app: TestApp, issueId: number): Promise<void> {
  await app.services.deps.db.update(issues).set({ isLocked: true }).where(eq(issues.id, issueId));
}

/** A 404 answer with the spec's empty body. */
export function assertEmpty404(r: { error?: unknown; response: Response }, label = ''): void {
  assert.is(r.response.status, 404, label);
  assert.ok(r.error === undefined || r.error === '', `${label}: 404 has an empty body, not ${JSON.stringify(r.error)}`);
}

/** A comment without the viewer-dependent parts of its poster (e-mail shown to some callers only). */
export const comparable = (c: Comment) => ({ ...c, user: c.user.login });
