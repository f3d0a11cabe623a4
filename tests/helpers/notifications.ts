// Notification fixtures: the caller's threads (all statuses), watching a repository, and direct thread
// rows for tests of the status transition (the fan-out has tests of its own).
import { request } from 'node:http';
import { eq } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import type { components } from '../../generated/openapi.js';
import { notifications, type NotificationStatus } from '../../src/db/schema/index.js';
import type { TestApp } from './harness.js';
import { editRepo, newComment, newIssue, people, sharedRepo, type People, type Repo } from './issues.js';
import type { Actor } from './repos.js';

export type NotificationThread = components['schemas']['NotificationThread'];

/** Every thread of `as` (all statuses, newest first), through GET /notifications. */
export async function threadsOf(app: TestApp, as: Actor, query: Record<string, unknown> = {}): Promise<NotificationThread[]> {
  const r = await app.client(as.auth).GET('/notifications', { params: { query: { all: 'true', limit: 50, ...query } as never } });
  assert.is(r.response.status, 200, `GET /notifications: ${JSON.stringify(r.error)}`);
  return r.data!;
}

/** PUT /repos/{o}/{r}/subscription as `as`. */
export async function watch(app: TestApp, as: Actor, path: { owner: string; repo: string }): Promise<void> {
  const r = await app.client(as.auth).PUT('/repos/{owner}/{repo}/subscription', { params: { path } });
  assert.is(r.response.status, 200, `watch: ${JSON.stringify(r.error)}`);
}

/** Sets a thread's status and updated time directly (to build states the API reaches only over time). */
export async function setThread(app: TestApp, id: number, status: NotificationStatus, updatedAt: Date): Promise<void> {
  await app.services.deps.db.update(notifications).set({ status, updatedAt }).where(eq(notifications.id, id));
}

/** The stored thread rows of a user. */
export async function threadRows(app: TestApp, userId: number) {
  return app.services.deps.db.select().from(notifications).where(eq(notifications.userId, userId));
}

/**
 * A request read with node:http, for the 205 answers of the notification transitions: fetch treats 205
 * as a null-body status and drops the JSON list Gitea (and anvil) send with it.
 */
export function send205(app: TestApp, method: 'PUT' | 'PATCH', path: string, authorization?: string): Promise<{ status: number; contentType?: string; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const url = new URL(app.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, method, path: `/api/v1${path}`, headers: authorization ? { Authorization: authorization } : {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'], body: text ? JSON.parse(text) : undefined });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * A repository of `p.owner` where `p.reader` watches and `p.writer` opened `issues` issues (owner and
 * reader each get a thread per issue); the first issue also has a comment by the writer.
 */
export async function notificationWorld(app: TestApp, issues = 3): Promise<{ p: People; repo: Repo; titles: string[] }> {
  const p = await people(app);
  const repo = await sharedRepo(app, p);
  await watch(app, p.reader, repo.path);
  const titles: string[] = [];
  for (let i = 0; i < issues; i++) {
    const issue = await newIssue(app, repo, p.writer, { title: `issue ${i}` });
    titles.push(issue.title);
    if (i === 0) await newComment(app, repo, issue.number, p.writer, 'a comment');
  }
  return { p, repo, titles };
}

/** PUT or DELETE /repos/{o}/{r}/issues/{index}/subscriptions/{user} as `auth`: the status and the raw body. */
export async function setSubscription(app: TestApp, method: 'PUT' | 'DELETE', repo: Repo, index: number, user: string, auth?: string) {
  const res = await fetch(`${app.url}/api/v1/repos/${repo.full_name}/issues/${index}/subscriptions/${encodeURIComponent(user)}`, {
    method, headers: auth ? { Authorization: auth } : {},
  });
  return { status: res.status, text: await res.text(), contentType: res.headers.get('content-type') };
}

/** GET .../issues/{index}/subscriptions/check as `auth`. */
export const checkSubscription = (app: TestApp, repo: Repo, index: number, auth?: string) =>
  app.client(auth).GET('/repos/{owner}/{repo}/issues/{index}/subscriptions/check', { params: { path: { ...repo.path, index } } });

/** DELETE /repos/{o}/{r}/collaborators/{user} as the repository's owner. */
export async function dropCollaborator(app: TestApp, repo: Repo, owner: Actor, user: Actor): Promise<void> {
  const r = await app.client(owner.auth).DELETE('/repos/{owner}/{repo}/collaborators/{collaborator}', {
    params: { path: { ...repo.path, collaborator: user.username } },
  });
  assert.is(r.response.status, 204, `DELETE collaborator: ${JSON.stringify(r.error)}`);
}

/**
 * A thread its user can lose: a public repository of `p.owner` that `who` (no collaborator: `p.outsider`
 * by default) watches, where `p.writer` opened an issue `title`, so `who` has one unread thread. `hide()`
 * makes the repository private (`who` can no longer read it), `show()` public again.
 */
export async function fadingThread(app: TestApp, p: People, title = 'fading', who: Actor = p.outsider) {
  const repo = await sharedRepo(app, p);
  await watch(app, who, repo.path);
  await newIssue(app, repo, p.writer, { title });
  const thread = (await threadsOf(app, who)).find((t) => t.repository.id === repo.id);
  assert.ok(thread?.unread, `${who.username} has an unread thread about "${title}"`);
  return {
    repo,
    thread: thread!,
    hide: () => editRepo(app, repo, { private: true }),
    show: () => editRepo(app, repo, { private: false }),
  };
}
