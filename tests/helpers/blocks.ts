// Blocking fixtures: two people tied to each other in every way a block ends (follows, stars, watches,
// collaborations, assignments, a pending transfer), built through the operations, and what the blocked user
// is then refused. The block operations' own tests use them.
import { and, eq } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { collaborations, issueAssignees, repoTransfers, repoWatches, stars } from '../../src/db/schema/index.js';
import { countsOf, follow } from './follows.js';
import type { TestApp } from './harness.js';
import { actor, type Actor } from './orgs.js';
import { addCollaborator, pathOf, userRepo, type Repository } from './repos.js';

export const blockUser = (app: TestApp, by: Actor, username: string, note?: string) =>
  app.client(by.auth).PUT('/user/blocks/{username}', { params: { path: { username }, query: note === undefined ? {} : { note } } });
export const unblockUser = (app: TestApp, by: Actor, username: string) =>
  app.client(by.auth).DELETE('/user/blocks/{username}', { params: { path: { username } } });

export async function block(app: TestApp, by: Actor, username: string): Promise<void> {
  const res = await blockUser(app, by, username);
  assert.is(res.response.status, 204, `block ${username}: ${JSON.stringify(res.error)}`);
}

export async function orgBlock(app: TestApp, by: Actor, org: string, username: string): Promise<void> {
  const res = await app.client(by.auth).PUT('/orgs/{org}/blocks/{username}', { params: { path: { org, username } } });
  assert.is(res.response.status, 204, `block ${username} for ${org}: ${JSON.stringify(res.error)}`);
}

export interface Ties {
  /** Will block `b`; owns `aRepo`, where `b` collaborates and is assigned to an issue, and `aMoving`. */
  a: Actor;
  b: Actor;
  aRepo: Repository;
  /** `a`'s repository offered to `b` (a pending transfer). */
  aMoving: Repository;
  /** `b`'s repository, where `a` collaborates. */
  bRepo: Repository;
  issueId: number;
}

/** `a` and `b` follow each other, star and watch each other's repositories, collaborate on them. */
export async function ties(app: TestApp): Promise<Ties> {
  const [a, b] = await Promise.all([actor(app), actor(app)]);
  const [aRepo, aMoving, bRepo] = await Promise.all([userRepo(app, a), userRepo(app, a), userRepo(app, b)]);
  await Promise.all([follow(app, a, b.username), follow(app, b, a.username)]);
  await Promise.all([addCollaborator(app, aRepo, b, 'write'), addCollaborator(app, bRepo, a, 'write')]);
  for (const [who, repo] of [[a, bRepo], [b, aRepo]] as const) {
    const path = pathOf(repo);
    const star = await app.client(who.auth).PUT('/user/starred/{owner}/{repo}', { params: { path } });
    assert.is(star.response.status, 204);
    const watch = await app.client(who.auth).PUT('/repos/{owner}/{repo}/subscription', { params: { path } });
    assert.is(watch.response.status, 200);
  }
  const issue = await app.client(a.auth).POST('/repos/{owner}/{repo}/issues', { params: { path: pathOf(aRepo) }, body: { title: 'assigned', assignees: [b.username] } });
  assert.is(issue.response.status, 201);
  const moving = await app.client(a.auth).POST('/repos/{owner}/{repo}/transfer', { params: { path: pathOf(aMoving) }, body: { new_owner: b.username } });
  assert.is(moving.response.status, 201, JSON.stringify(moving.error));
  return { a, b, aRepo, aMoving, bRepo, issueId: issue.data!.id };
}

/** What ties `a` and `b` now: each kind's number of rows, and the follow counters. */
export async function tiesLeft(app: TestApp, t: Ties) {
  const { db } = app.services.deps;
  const rows = async (table: typeof stars | typeof repoWatches | typeof collaborations, userId: number, repoId: number) =>
    (await db.select().from(table).where(and(eq(table.userId, userId), eq(table.repoId, repoId)))).length;
  return {
    follows: [await countsOf(app, t.a.username), await countsOf(app, t.b.username)],
    stars: (await rows(stars, t.a.id, t.bRepo.id)) + (await rows(stars, t.b.id, t.aRepo.id)),
    watches: (await rows(repoWatches, t.a.id, t.bRepo.id)) + (await rows(repoWatches, t.b.id, t.aRepo.id)),
    collaborations: (await rows(collaborations, t.a.id, t.bRepo.id)) + (await rows(collaborations, t.b.id, t.aRepo.id)),
    assignments: (await db.select().from(issueAssignees).where(eq(issueAssignees.issueId, t.issueId))).length,
    transfers: (await db.select().from(repoTransfers).where(eq(repoTransfers.repoId, t.aMoving.id))).length,
  };
}

export const allTies = { follows: [[1, 1], [1, 1]], stars: 2, watches: 2, collaborations: 2, assignments: 1, transfers: 1 };
export const noTies = { follows: [[0, 0], [0, 0]], stars: 0, watches: 0, collaborations: 0, assignments: 0, transfers: 0 };

/** The star and watch counters of a repository, as its owner reads them. */
export async function repoCounts(app: TestApp, by: Actor, repo: Repository): Promise<[number, number]> {
  const res = await app.client(by.auth).GET('/repos/{owner}/{repo}', { params: { path: pathOf(repo) } });
  assert.is(res.response.status, 200);
  return [res.data!.stars_count, res.data!.watchers_count];
}

/**
 * The statuses `who` gets for everything a block refuses around `repo` (following its owner, starring and
 * watching it, opening an issue, commenting on `by`'s issue there, being added as collaborator by `by`).
 */
export async function refusals(app: TestApp, who: Actor, repo: Repository, by: Actor): Promise<Record<string, number>> {
  const path = pathOf(repo);
  const c = app.client(who.auth);
  const issue = await app.client(by.auth).POST('/repos/{owner}/{repo}/issues', { params: { path }, body: { title: 'by the owner' } });
  assert.is(issue.response.status, 201);
  return {
    follow: (await c.PUT('/user/following/{username}', { params: { path: { username: path.owner } } })).response.status,
    star: (await c.PUT('/user/starred/{owner}/{repo}', { params: { path } })).response.status,
    watch: (await c.PUT('/repos/{owner}/{repo}/subscription', { params: { path } })).response.status,
    issue: (await c.POST('/repos/{owner}/{repo}/issues', { params: { path }, body: { title: 'from the blocked one' } })).response.status,
    comment: (await c.POST('/repos/{owner}/{repo}/issues/{index}/comments', { params: { path: { ...path, index: issue.data!.number } }, body: { body: 'hi' } })).response.status,
    collaborator: (await app.client(by.auth).PUT('/repos/{owner}/{repo}/collaborators/{collaborator}', {
      params: { path: { ...path, collaborator: who.username } }, body: { permission: 'write' },
    })).response.status,
  };
}

export const allRefused = { follow: 403, star: 403, watch: 403, issue: 403, comment: 403, collaborator: 403 };
export const noneRefused = { follow: 204, star: 204, watch: 200, issue: 201, comment: 201, collaborator: 204 };

export const orgBlockPath = (org: string, username: string) => ({ params: { path: { org, username } } });
