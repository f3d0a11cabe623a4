// Fixtures for the tracked-time and stopwatch tests: a shared repository (owner, reader, writer, outsider,
// site admin) with issues, times added through the API, tracker switches, and stopwatches moved back in
// time in the database (no test waits for a clock).
import { eq } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import type { components } from '../../generated/openapi.js';
import { stopwatches } from '../../src/db/schema/index.js';
import type { TestApp } from './harness.js';
import { editRepo, newIssue, people, sharedRepo, type Issue, type People, type Repo } from './issues.js';
import type { Actor } from './repos.js';

export type TrackedTime = components['schemas']['TrackedTime'];
export type StopWatch = components['schemas']['StopWatch'];
export type AddTimeOption = components['schemas']['AddTimeOption'];

export interface TimeWorld {
  p: People;
  repo: Repo;
  /** Opened by the owner. */
  issue: Issue;
  /** Opened by the reader (who may track time on it as its poster). */
  readersIssue: Issue;
}

export async function timeWorld(app: TestApp, opts: { private?: boolean } = {}): Promise<TimeWorld> {
  const p = await people(app);
  const repo = await sharedRepo(app, p, opts);
  const [issue, readersIssue] = await Promise.all([newIssue(app, repo, p.owner, { title: 'owner’s issue' }), newIssue(app, repo, p.reader, { title: 'reader’s issue' })]);
  return { p, repo, issue, readersIssue };
}

/** A fresh repository of the same people (for tests that switch its settings). */
export async function anotherRepo(app: TestApp, w: TimeWorld, opts: { private?: boolean } = {}): Promise<{ repo: Repo; issue: Issue }> {
  const repo = await sharedRepo(app, w.p, opts);
  return { repo, issue: await newIssue(app, repo, w.p.owner) };
}

export const addTime = (app: TestApp, repo: Repo, index: number, body: AddTimeOption, authorization?: string) =>
  app.client(authorization).POST('/repos/{owner}/{repo}/issues/{index}/times', { params: { path: { ...repo.path, index } }, body });

/** POST .../times that must succeed. */
export async function tracked(app: TestApp, repo: Repo, index: number, as: Actor, body: AddTimeOption): Promise<TrackedTime> {
  const r = await addTime(app, repo, index, body, as.auth);
  assert.is(r.response.status, 200, `POST times: ${JSON.stringify(r.error)}`);
  return r.data!;
}

/** Switches the repository's time tracker (`allow_only_contributors_to_track_time` stays on unless given). */
export function setTracker(app: TestApp, repo: Repo, on: boolean, contributorsOnly = true): Promise<void> {
  return editRepo(app, repo, { internal_tracker: { enable_time_tracker: on, allow_only_contributors_to_track_time: contributorsOnly, enable_issue_dependencies: false } });
}

export function stopwatch(app: TestApp, action: 'start' | 'stop' | 'delete', repo: Repo, index: number, authorization?: string) {
  const params = { params: { path: { ...repo.path, index } } };
  const c = app.client(authorization);
  if (action === 'start') return c.POST('/repos/{owner}/{repo}/issues/{index}/stopwatch/start', params);
  if (action === 'stop') return c.POST('/repos/{owner}/{repo}/issues/{index}/stopwatch/stop', params);
  return c.DELETE('/repos/{owner}/{repo}/issues/{index}/stopwatch/delete', params);
}

/** Moves the user's running stopwatch `seconds` into the past, as if it had run that long. */
export async function backdateStopwatch(app: TestApp, userId: number, seconds: number): Promise<void> {
  const db = app.services.deps.db;
  const [sw] = await db.select().from(stopwatches).where(eq(stopwatches.userId, userId));
  assert.ok(sw, 'a running stopwatch');
  await db.update(stopwatches).set({ createdAt: new Date(sw.createdAt.getTime() - seconds * 1000) }).where(eq(stopwatches.id, sw.id));
}

export async function myTimes(app: TestApp, as: Actor, query: { since?: string; before?: string } = {}): Promise<TrackedTime[]> {
  const r = await app.client(as.auth).GET('/user/times', { params: { query: { limit: 50, ...query } } });
  assert.is(r.response.status, 200, `GET /user/times: ${JSON.stringify(r.error)}`);
  return r.data!;
}

export async function issueTimes(app: TestApp, repo: Repo, index: number, as: Actor, query: { user?: string } = {}): Promise<TrackedTime[]> {
  const r = await app.client(as.auth).GET('/repos/{owner}/{repo}/issues/{index}/times', { params: { path: { ...repo.path, index }, query: { limit: 50, ...query } } });
  assert.is(r.response.status, 200, `GET issue times: ${JSON.stringify(r.error)}`);
  return r.data!;
}
