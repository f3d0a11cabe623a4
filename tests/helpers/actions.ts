// Actions fixtures: a runner that speaks Gitea's runner protocol in binary protobuf through a Connect
// client (as act_runner does), repositories with workflow files pushed over smart HTTP, and waits for
// the runs the trigger worker makes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Code, ConnectError, createClient, type Client, type Interceptor } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { randomBytes } from 'node:crypto';
import { asc, eq, sql } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { Result, type Task } from '../../generated/proto/runner/v1/messages_pb.js';
import { RunnerService } from '../../generated/proto/runner/v1/services_pb.js';
import { actionRunJobs, actionRuns, type ActionRunJobRow, type ActionRunRow, type ActionState } from '../../src/db/schema/index.js';
import { assertSpec } from './spec-check.js';
import { eventually } from './hooks.js';
import type { TestApp, TestUser } from './harness.js';
import { actor, userRepo, type Actor, type Repository } from './repos.js';
import { gitWorkspace } from './events.js';

export type RunnerClient = Client<typeof RunnerService>;

/** A Connect client of the runner service; with credentials, every call carries x-runner-uuid/x-runner-token. */
export function runnerClient(app: TestApp, creds?: { uuid: string; token: string }, opts: { json?: boolean } = {}): RunnerClient {
  const auth: Interceptor = (next) => async (req) => {
    if (creds) {
      req.header.set('x-runner-uuid', creds.uuid);
      req.header.set('x-runner-token', creds.token);
    }
    return next(req);
  };
  const transport = createConnectTransport({ baseUrl: `${app.url}/api/actions`, httpVersion: '1.1', useBinaryFormat: !opts.json, interceptors: [auth] });
  const client = createClient(RunnerService, transport);
  // uvu cannot print a ConnectError (its `details` array breaks the report and stops the file): calls fail
  // with a plain Error of the same code and message instead.
  return new Proxy(client, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } catch (err) {
          if (!(err instanceof ConnectError)) throw err;
          throw Object.assign(new Error(`${String(key)}: [${Code[err.code]}] ${err.rawMessage}`), { code: err.code });
        }
      };
    },
  });
}

/** The global registration token (spec 3, as the site administrator). */
export async function registrationToken(app: TestApp): Promise<string> {
  const res = await app.client(app.admin.basic).POST('/admin/actions/runners/registration-token');
  assert.is(res.response.status, 200);
  return res.data!.token;
}

export interface TestRunner {
  id: number;
  uuid: string;
  name: string;
  client: RunnerClient;
}

let runners = 0;

/** Registers a runner with the site's token, with `labels`, and declares them, as act_runner does at start. */
export async function registerRunner(app: TestApp, labels: string[] = ['ubuntu-latest'], name = `runner-${++runners}`): Promise<TestRunner> {
  return registerWith(app, await registrationToken(app), labels, name);
}

/** The same with a given registration token (a repository's or an organization's). */
export async function registerWith(app: TestApp, token: string, labels: string[], name = `runner-${++runners}`): Promise<TestRunner> {
  const { runner } = await runnerClient(app).register({ name, token, version: 'v0.2.13', labels });
  const client = runnerClient(app, { uuid: runner!.uuid, token: runner!.token });
  await client.declare({ version: 'v0.2.13', labels });
  return { id: Number(runner!.id), uuid: runner!.uuid, name, client };
}

/** Commits `files` on `branch` of a fresh clone and pushes it over smart HTTP as `user`; answers the commit id. */
export async function pushFiles(app: TestApp, user: TestUser, owner: string, repo: string, files: Record<string, string>, opts: { branch?: string; message?: string; tag?: string } = {}): Promise<string> {
  const ws = gitWorkspace(app);
  try {
    const remote = ws.remote(user, owner, repo);
    const dir = await ws.clone(remote);
    const branch = opts.branch ?? 'main';
    if ((await ws.run(['rev-parse', '--verify', '--quiet', `origin/${branch}`], dir)).code === 0) await ws.must(['checkout', '-q', '-B', branch, `origin/${branch}`], dir);
    else await ws.must(['checkout', '-q', '-b', branch], dir);
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
    await ws.must(['add', '-A'], dir);
    await ws.must(['commit', '-q', '--allow-empty', '-m', opts.message ?? 'add workflow'], dir);
    const sha = (await ws.must(['rev-parse', 'HEAD'], dir)).trim();
    await ws.must(['push', '-q', 'origin', `HEAD:refs/heads/${branch}`], dir);
    if (opts.tag) {
      await ws.must(['tag', opts.tag], dir);
      await ws.must(['push', '-q', 'origin', `refs/tags/${opts.tag}`], dir);
    }
    return sha;
  } finally {
    ws.close();
  }
}

/** The runs of a repository (oldest first) once there are `n` of them. */
export async function runsOf(app: TestApp, repoId: number, n: number): Promise<ActionRunRow[]> {
  return eventually(async () => {
    const rows = await app.services.deps.db.select().from(actionRuns).where(eq(actionRuns.repoId, repoId)).orderBy(asc(actionRuns.id));
    return rows.length >= n ? rows : undefined;
  }, `${n} runs of repository ${repoId}`);
}

export async function jobsOf(app: TestApp, runId: number): Promise<ActionRunJobRow[]> {
  return app.services.deps.db.select().from(actionRunJobs).where(eq(actionRunJobs.runId, runId)).orderBy(asc(actionRunJobs.id));
}

/** Takes one task (asking with version 0: always searched). */
export async function fetchTask(runner: TestRunner): Promise<Task | undefined> {
  return (await runner.client.fetchTask({ tasksVersion: 0n })).task;
}

export const jobIdOf = (task: Task): string => {
  const ctx = task.context as { job?: string };
  return ctx.job ?? '';
};

/** Reports a task's end: each step with `result`, `logs` lines sent first (then no more). */
export async function finishTask(runner: TestRunner, task: Task, result: Result, logs: string[] = ['hello']): Promise<void> {
  const now = new Date();
  const rows = logs.map((content) => ({ time: timestampFromDate(now), content }));
  const log = await runner.client.updateLog({ taskId: task.id, index: 0n, rows, noMore: false });
  assert.is(Number(log.ackIndex), logs.length);
  await runner.client.updateLog({ taskId: task.id, index: BigInt(logs.length), rows: [], noMore: true });
  const state = {
    id: task.id, result, startedAt: timestampFromDate(now), stoppedAt: timestampFromDate(new Date()),
    steps: [{ id: 0n, result, startedAt: timestampFromDate(now), stoppedAt: timestampFromDate(new Date()), logIndex: 0n, logLength: BigInt(logs.length) }],
  };
  const res = await runner.client.updateTask({ state, outputs: {} });
  assert.is(res.state?.result, result);
}

export const workflow = (text: string) => text.replace(/^\n/, '');
export { Result };

type Answer = { response: Response; error?: unknown };

/** The site-administrator-only rule of the admin Actions operations: 401 anonymous, 403 plain user and a token without the scope. */
export async function assertAdminOnly(app: TestApp, operationId: Parameters<typeof assertSpec>[0], call: (auth: string | null) => Promise<Answer>, wrongScope: string): Promise<void> {
  const anon = await call(null);
  assert.is(anon.response.status, 401);
  assertSpec(operationId, anon as never);
  const plain = await call(await app.token(await app.user()));
  assert.is(plain.response.status, 403);
  assertSpec(operationId, plain as never);
  assert.is((plain.error as { message: string }).message, 'user should be the site admin');
  assert.is((await call(await app.token(app.admin, [wrongScope]))).response.status, 403, `a token with only ${wrongScope}`);
}

export interface SeededRun { run: ActionRunRow; jobs: ActionRunJobRow[] }

/**
 * Runs written straight into the tables (the push → run path has its own tests): for the lists' filters
 * and pages, which need many runs in known states.
 */
export async function seedRuns(app: TestApp, repo: { id: number; owner: { id: number } }, actorId: number, specs: Array<{ status: ActionState; event?: string; ref?: string; sha?: string; jobs?: ActionState[]; needApproval?: boolean }>): Promise<SeededRun[]> {
  const { db } = app.services.deps;
  const [{ max }] = (await db.select({ max: sql<string>`coalesce(max(${actionRuns.index}), 0)` }).from(actionRuns).where(eq(actionRuns.repoId, repo.id))) as [{ max: string }];
  let index = Number(max);
  const out: SeededRun[] = [];
  for (const s of specs) {
    const sha = s.sha ?? randomBytes(20).toString('hex');
    const person = { name: 'x', email: 'x@example.com', date: new Date().toISOString() };
    const [run] = await db
      .insert(actionRuns)
      .values({
        repoId: repo.id, ownerId: repo.owner.id, workflowId: 'seed.yml', workflowDir: '.gitea/workflows', workflowName: 'Seed', title: 'seeded run',
        index: ++index, triggerUserId: actorId, ref: s.ref ?? 'refs/heads/main', commitSha: sha,
        commit: { id: sha, tree: sha, parents: [], author: person, committer: person, message: 'seeded\n' }, event: s.event ?? 'push', status: s.status,
        ...(s.needApproval ? { needApproval: true, isForkPullRequest: true } : {}),
      })
      .returning();
    const jobs = (s.jobs ?? [s.status]).length
      ? await db
          .insert(actionRunJobs)
          .values((s.jobs ?? [s.status]).map((status, i) => ({
            runId: run!.id, repoId: repo.id, ownerId: repo.owner.id, jobId: `job${i}`, name: `job ${i}`, workflowPayload: 'jobs: {}\n', runsOn: ['seed-label'], status,
          })))
          .returning()
      : [];
    out.push({ run: run!, jobs });
  }
  return out;
}

export interface ActionsWorld {
  owner: Actor;
  /** A collaborator with read access to `priv`. */
  reader: Actor;
  /** Nobody to `priv`. */
  outsider: Actor;
  pub: Repository;
  priv: Repository;
}

/** A public and a private repository of one owner, a read collaborator on the private one and an outsider. */
export async function actionsWorld(app: TestApp): Promise<ActionsWorld> {
  const owner = await actor(app);
  const reader = await actor(app);
  const outsider = await actor(app);
  const pub = await userRepo(app, owner, { auto_init: true });
  const priv = await userRepo(app, owner, { auto_init: true, private: true });
  const added = await app.client(owner.basic).PUT('/repos/{owner}/{repo}/collaborators/{collaborator}', {
    params: { path: { owner: owner.username, repo: priv.name, collaborator: reader.username } }, body: { permission: 'read' },
  });
  assert.is(added.response.status, 204);
  return { owner, reader, outsider, pub, priv };
}

/** The repository-scoped reads' rule: anonymous reads a public repository; a private one is 404 to anonymous and outsiders, readable by collaborators; switched-off Actions is 404. */
export async function assertActionsReadRoles(app: TestApp, w: ActionsWorld, operationId: Parameters<typeof assertSpec>[0], call: (repo: Repository, auth: string | null) => Promise<Answer>): Promise<void> {
  const pub = await call(w.pub, null);
  assert.is(pub.response.status, 200, 'anonymous on a public repository');
  for (const auth of [null, w.outsider.basic]) {
    const hidden = await call(w.priv, auth);
    assert.is(hidden.response.status, 404, 'a private repository to anonymous or an outsider');
    assertSpec(operationId, hidden as never);
  }
  assert.is((await call(w.priv, w.reader.basic)).response.status, 200, 'a read collaborator');
}

/** The repository-scoped changes' rule: 401 anonymous, 404 to an outsider of a private repository, 403 to a read collaborator. */
export async function assertActionsWriteRoles(app: TestApp, w: ActionsWorld, operationId: Parameters<typeof assertSpec>[0], call: (repo: Repository, auth: string | null) => Promise<Answer>): Promise<void> {
  const anon = await call(w.pub, null);
  assert.is(anon.response.status, 401, 'anonymous');
  assertSpec(operationId, anon as never);
  const outsider = await call(w.priv, w.outsider.basic);
  assert.is(outsider.response.status, 404, 'an outsider of a private repository');
  const reader = await call(w.priv, w.reader.basic);
  assert.is(reader.response.status, 403, 'a read collaborator');
  assertSpec(operationId, reader as never);
}

/**
 * The cases every change to one run shares: 404 for an unknown run and for another repository's, and the
 * write roles, each on a fresh run in `status` (one the change accepts).
 */
export async function assertRunChangeCommon(app: TestApp, w: ActionsWorld, operationId: Parameters<typeof assertSpec>[0], status: ActionState, call: (repo: Repository, run: number, auth: string | null) => Promise<Answer>): Promise<void> {
  const [other] = await seedRuns(app, w.priv, w.owner.id, [{ status }]);
  for (const id of [987_654_321, other!.run.id]) {
    const res = await call(w.pub, id, w.owner.basic);
    assert.is(res.response.status, 404, `run ${id}`);
    assertSpec(operationId, res as never);
  }
  const [a] = await seedRuns(app, w.pub, w.owner.id, [{ status }]);
  const [b] = await seedRuns(app, w.priv, w.owner.id, [{ status }]);
  await assertActionsWriteRoles(app, w, operationId, (repo, auth) => call(repo, repo.id === w.pub.id ? a!.run.id : b!.run.id, auth));
}
