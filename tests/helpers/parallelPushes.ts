// Parallel pushes through one anvil process or several on one database (issue #31): each push must be
// recorded exactly once, by what it did itself: N pushes that git accepted make N push events, N push
// deliveries per hook and N workflow runs, whatever the other pushes did at the same time. The scenarios
// talk HTTP to the processes (`bases`, pushes spread over them in turn) and read the database directly
// only to count what was recorded and to see that the workers have nothing left to do.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { and, asc, eq, inArray } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import type { Db } from '../../src/db/client.js';
import { actionRuns, actionTriggers, events, hookDeliveries, pendingPushes } from '../../src/db/schema/index.js';
import { adminCredentials, basic } from './harness.js';
import { eventually, type Receiver } from './hooks.js';
import { runProgram } from './spawnGit.js';

const workflowText = `name: on-push
on: [push]
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: echo built
`;

export interface PushWorld {
  /** Base URLs (`http://127.0.0.1:port`) of the processes; the n-th push goes to bases[n % length]. */
  bases: string[];
  /** A connection to the database they share (for counting what was recorded). */
  db: Db;
  /** A webhook receiver on 127.0.0.1 the processes may deliver to. */
  rx: Receiver;
  /** Whether the processes start workflow runs (ACTIONS enabled with a trigger worker). */
  actions: boolean;
}

interface GitRun { code: number; stdout: string; stderr: string }

const who = adminCredentials;
const auth = basic(who.username, who.password);

function gitIn(root: string) {
  const env = {
    PATH: process.env.PATH ?? '', HOME: root, XDG_CONFIG_HOME: root, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C',
    GIT_AUTHOR_NAME: 'Pusher', GIT_AUTHOR_EMAIL: 'pusher@example.com', GIT_COMMITTER_NAME: 'Pusher', GIT_COMMITTER_EMAIL: 'pusher@example.com',
  };
  const run = (args: string[], cwd = root) => new Promise<GitRun>((resolve) => {
    runProgram('git', args, { cwd, env }).then(
      (r) => resolve({ code: r.code, stdout: r.stdout.toString('utf8'), stderr: r.stderr.toString('utf8') }),
      (err: Error) => resolve({ code: 1, stdout: '', stderr: err.message }),
    );
  });
  const must = async (args: string[], cwd?: string) => {
    const r = await run(args, cwd);
    assert.is(r.code, 0, `git ${args.join(' ')}: ${r.stderr}`);
    return r.stdout.trim();
  };
  return { run, must };
}

const remote = (base: string, repo: string) => {
  const u = new URL(base);
  return `${u.protocol}//${encodeURIComponent(who.username)}:${encodeURIComponent(who.password)}@${u.host}/${who.username}/${repo}.git`;
};

async function api(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await fetch(`${base}/api/v1${path}`, {
    method, headers: { Authorization: auth, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

export interface Scenario {
  /** What each push sends: `<local ref>:<remote ref>` and whether it is forced. */
  pushes: Array<{ spec: string; force?: boolean }>;
}

export interface Outcome {
  /** The pushes git accepted (exit 0), by index. */
  accepted: number[];
  repoId: number;
}

/**
 * A repository of the site administrator with a workflow on every push and a hook on push events, and a
 * local clone of it (its `main` at the workflow commit) to make the pushes from.
 */
export async function pushRepo(w: PushWorld, name: string) {
  const root = mkdtempSync(join(tmpdir(), 'anvil-parallel-'));
  const g = gitIn(root);
  const base = w.bases[0]!;
  const made = await api(base, 'POST', '/user/repos', { name, auto_init: true, default_branch: 'main' });
  assert.is(made.status, 201, JSON.stringify(made.json));
  const dir = join(root, 'clone');
  await g.must(['clone', '-q', remote(base, name), dir]);
  mkdirSync(join(dir, '.gitea', 'workflows'), { recursive: true });
  writeFileSync(join(dir, '.gitea', 'workflows', 'push.yml'), workflowText);
  await g.must(['add', '-A'], dir);
  await g.must(['commit', '-q', '-m', 'workflow'], dir);
  await g.must(['push', '-q', 'origin', 'HEAD:refs/heads/main'], dir);
  const hook = await api(base, 'POST', `/repos/${who.username}/${name}/hooks`, { type: 'gitea', active: true, events: ['push'], config: { url: w.rx.url, content_type: 'json' } });
  assert.is(hook.status, 201, JSON.stringify(hook.json));
  return {
    name,
    repoId: made.json.id as number,
    hookId: hook.json.id as number,
    dir,
    git: g,
    /** A commit of its own on top of main, under local branch `branch` (message `add <file>` unless given); answers its id. */
    async commitOn(branch: string, file: string, message = `add ${file}`): Promise<string> {
      await g.must(['checkout', '-q', '-B', branch, 'main'], dir);
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), `${file}\n`);
      await g.must(['add', '-A'], dir);
      await g.must(['commit', '-q', '-m', message], dir);
      return g.must(['rev-parse', 'HEAD'], dir);
    },
    /** Opens an issue through the first process's API; answers its number. */
    async newIssue(title: string): Promise<number> {
      const r = await api(base, 'POST', `/repos/${who.username}/${name}/issues`, { title });
      assert.is(r.status, 201, JSON.stringify(r.json));
      return r.json.number as number;
    },
    /** An issue as the first process's API answers it. */
    issue: async (index: number) => (await api(base, 'GET', `/repos/${who.username}/${name}/issues/${index}`)).json as { state: string },
    close: () => rmSync(root, { recursive: true, force: true }),
  };
}

export type PushRepo = Awaited<ReturnType<typeof pushRepo>>;

/** Everything recorded for the repository so far: push events, and (once the workers are done) deliveries and runs. */
async function recorded(w: PushWorld, repo: PushRepo) {
  const pushes = await w.db.select({ id: events.id, data: events.data }).from(events)
    .where(and(eq(events.repoId, repo.repoId), eq(events.type, 'push'))).orderBy(asc(events.id));
  return pushes.map((p) => p.data as { ref: string; before: string; after: string });
}

/** Waits until no push is pending and the delivery and trigger workers have nothing left for the repository. */
async function settled(w: PushWorld, repo: PushRepo): Promise<void> {
  await eventually(async () => {
    const pending = await w.db.select({ id: pendingPushes.id }).from(pendingPushes).where(eq(pendingPushes.repoId, repo.repoId));
    const deliveries = await w.db.select({ id: hookDeliveries.id }).from(hookDeliveries)
      .where(and(eq(hookDeliveries.hookId, repo.hookId), inArray(hookDeliveries.state, ['pending'])));
    const triggers = await w.db.select({ id: actionTriggers.id }).from(actionTriggers).where(eq(actionTriggers.repoId, repo.repoId));
    return pending.length === 0 && deliveries.length === 0 && triggers.length === 0;
  }, 'the pushes recorded, delivered and turned into runs', 60_000);
}

/**
 * Runs `pushes` at once from the repository's clone (each to its own process in turn, by URL, so no
 * remote-tracking ref is written locally), then checks that exactly the accepted ones were recorded:
 * one push event each (with the old and new ids git moved), one push delivery each, one run each.
 */
export async function pushAtOnce(w: PushWorld, repo: PushRepo, pushes: Scenario['pushes']): Promise<Outcome> {
  const eventsBefore = (await recorded(w, repo)).length;
  await settled(w, repo);
  const deliveredBefore = w.rx.of('push').length;
  const runsBefore = (await w.db.select({ id: actionRuns.id }).from(actionRuns).where(eq(actionRuns.repoId, repo.repoId))).length;
  const results = await Promise.all(pushes.map((p, i) =>
    repo.git.run(['push', '--porcelain', ...(p.force ? ['--force'] : []), remote(w.bases[i % w.bases.length]!, repo.name), p.spec], repo.dir)));
  const accepted = results.flatMap((r, i) => (r.code === 0 ? [i] : []));
  assert.ok(accepted.length > 0, `some push was accepted: ${results.map((r) => r.stderr).join('\n')}`);
  await settled(w, repo);
  const mine = (await recorded(w, repo)).slice(eventsBefore);
  const wanted = accepted.map((i) => pushes[i]!.spec.split(':')[1]!).sort();
  assert.equal(mine.map((e) => e.ref).sort(), wanted, 'one push event per accepted push, for the ref it moved');
  const delivered = w.rx.of('push').length - deliveredBefore;
  assert.is(delivered, accepted.length, 'one push delivery per accepted push');
  if (w.actions) {
    const runs = (await w.db.select({ id: actionRuns.id }).from(actionRuns).where(eq(actionRuns.repoId, repo.repoId))).length - runsBefore;
    assert.is(runs, accepted.length, 'one workflow run per accepted push');
  }
  return { accepted, repoId: repo.repoId };
}

/** The three scenarios of issue #31: distinct new branches, one branch (forced, so some lose the race), new tags. */
export async function distinctBranches(w: PushWorld, name: string, n: number): Promise<void> {
  const repo = await pushRepo(w, name);
  try {
    for (let i = 0; i < n; i++) await repo.commitOn(`b${i}`, `b${i}.txt`);
    const out = await pushAtOnce(w, repo, Array.from({ length: n }, (_, i) => ({ spec: `refs/heads/b${i}:refs/heads/b${i}` })));
    assert.is(out.accepted.length, n, 'new branches do not race each other');
  } finally {
    repo.close();
  }
}

export async function sameBranch(w: PushWorld, name: string, n: number): Promise<void> {
  const repo = await pushRepo(w, name);
  try {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push(await repo.commitOn(`s${i}`, `s${i}.txt`));
    const out = await pushAtOnce(w, repo, Array.from({ length: n }, (_, i) => ({ spec: `refs/heads/s${i}:refs/heads/main`, force: true })));
    // Each recorded push moved main to the commit of one accepted push, and no two to the same one.
    const afters = (await recorded(w, repo)).filter((e) => e.ref === 'refs/heads/main').map((e) => e.after);
    const acceptedIds = out.accepted.map((i) => ids[i]!);
    for (const id of acceptedIds) assert.is(afters.filter((a) => a === id).length, 1, `the push of ${id} is recorded once`);
  } finally {
    repo.close();
  }
}

export async function distinctTags(w: PushWorld, name: string, n: number): Promise<void> {
  const repo = await pushRepo(w, name);
  try {
    for (let i = 0; i < n; i++) {
      await repo.commitOn(`t${i}`, `t${i}.txt`);
      await repo.git.must(['tag', `v${i}`], repo.dir);
    }
    const out = await pushAtOnce(w, repo, Array.from({ length: n }, (_, i) => ({ spec: `refs/tags/v${i}:refs/tags/v${i}` })));
    assert.is(out.accepted.length, n, 'new tags do not race each other');
  } finally {
    repo.close();
  }
}
