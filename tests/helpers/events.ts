// Event and feed fixtures: reading the recorded events, the three feeds, and pushing with the real git CLI
// (asynchronously: the server answering it runs in this process).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc, eq } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import type { components } from '../../generated/openapi.js';
import { events } from '../../src/db/schema/index.js';
import type { TestApp, TestUser } from './harness.js';
import { runProgram } from './spawnGit.js';

export type Activity = components['schemas']['Activity'];

/** Every event recorded for a repository, oldest first: `type/action` strings and the rows. */
export async function eventsOf(app: TestApp, repoId: number) {
  const rows = await app.services.deps.db.select().from(events).where(eq(events.repoId, repoId)).orderBy(asc(events.id));
  return { rows, kinds: rows.map((r) => (r.action ? `${r.type}/${r.action}` : r.type)) };
}

type FeedPath = { org: string } | { username: string } | { owner: string; repo: string } | { team: number };

/** GET one of the four feeds (organization, user, repository, team); `query` as sent. */
export async function feed(app: TestApp, where: FeedPath, auth?: string, query: Record<string, string> = {}) {
  const path = 'team' in where
    ? `/teams/${where.team}/activities/feeds`
    : 'org' in where
    ? `/orgs/${where.org}/activities/feeds`
    : 'username' in where
      ? `/users/${where.username}/activities/feeds`
      : `/repos/${where.owner}/${where.repo}/activities/feeds`;
  const url = new URL(`${app.url}/api/v1${path}`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const response = await fetch(url, { headers: auth ? { Authorization: auth } : {} });
  const text = await response.text();
  return { status: response.status, response, text, data: response.ok ? (JSON.parse(text) as Activity[]) : undefined, total: response.headers.get('x-total-count') };
}

export const opTypes = (list: Activity[] | undefined) => (list ?? []).map((a) => a.op_type);

export interface GitRun { code: number; stdout: string; stderr: string }

/** A scratch clone area with an isolated git environment; `push` and friends go over smart HTTP as `user`. */
export function gitWorkspace(app: TestApp) {
  const root = mkdtempSync(join(tmpdir(), 'anvil-events-git-'));
  const env = {
    PATH: process.env.PATH ?? '', HOME: root, XDG_CONFIG_HOME: root, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C',
    GIT_AUTHOR_NAME: 'Pusher', GIT_AUTHOR_EMAIL: 'pusher@example.com', GIT_COMMITTER_NAME: 'Pusher', GIT_COMMITTER_EMAIL: 'pusher@example.com',
  };
  const run = (args: string[], cwd = root) =>
    new Promise<GitRun>((resolve) => {
      runProgram('git', args, { cwd, env }).then(
        (r) => resolve({ code: r.code, stdout: r.stdout.toString('utf8'), stderr: r.stderr.toString('utf8') }),
        (err: Error) => resolve({ code: 1, stdout: '', stderr: err.message }),
      );
    });
  const must = async (args: string[], cwd?: string) => {
    const r = await run(args, cwd);
    assert.is(r.code, 0, `git ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  return {
    root,
    run,
    must,
    remote: (user: TestUser, owner: string, repo: string) => {
      const u = new URL(app.url);
      u.username = user.username;
      u.password = user.password;
      return `${u.origin.replace('://', `://${encodeURIComponent(user.username)}:${encodeURIComponent(user.password)}@`)}/${owner}/${repo}.git`;
    },
    /** Clones into a fresh folder and returns it. */
    async clone(url: string): Promise<string> {
      const dir = mkdtempSync(join(root, 'c-'));
      await must(['clone', '-q', url, dir]);
      return dir;
    },
    async commit(dir: string, file: string, content: string, message: string): Promise<string> {
      writeFileSync(join(dir, file), content);
      await must(['add', file], dir);
      await must(['commit', '-q', '-m', message], dir);
      return (await must(['rev-parse', 'HEAD'], dir)).trim();
    },
    close: () => rmSync(root, { recursive: true, force: true }),
  };
}
