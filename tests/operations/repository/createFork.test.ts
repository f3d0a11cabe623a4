import { eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hookDeliveries } from '../../../src/db/schema/index.js';
import { feed, gitWorkspace, opTypes } from '../../helpers/events.js';
import { repoOf } from '../../helpers/forks.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { hookBody, repoHook } from '../../helpers/hooks.js';
import { people, sharedRepo, type People, type Repo } from '../../helpers/issues.js';
import { actor, orgWorld, swaggerOf, userRepo, type OrgWorld } from '../../helpers/repos.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let p: People;
let w: OrgWorld;
let repo: Repo;
let priv: Repo;
let ws: ReturnType<typeof gitWorkspace>;

test.before(async () => {
  app = await startApp();
  p = await people(app);
  [repo, priv, w] = await Promise.all([
    userRepo(app, p.owner, { auto_init: true, description: 'the parent' }).then((r) => ({ ...r, path: { owner: r.owner.login, repo: r.name } })),
    sharedRepo(app, p, { private: true }),
    orgWorld(app),
  ]);
  ws = gitWorkspace(app);
  // A second branch and a tag, so that the fork's copy of every ref can be checked.
  const work = await ws.clone(ws.remote(p.owner, repo.path.owner, repo.path.repo));
  await ws.must(['checkout', '-q', '-b', 'feature'], work);
  await ws.commit(work, 'f.txt', 'feature\n', 'feature work');
  await ws.must(['tag', 'v1'], work);
  await ws.must(['push', '-q', 'origin', 'feature', 'v1'], work);
});
test.after(async () => {
  ws.close();
  await app.close();
});

const post = (target: Repo, auth: string | null, body: { organization?: string; name?: string } = {}) =>
  app.client(auth ?? undefined).POST('/repos/{owner}/{repo}/forks', { params: { path: target.path }, body });

test('202: the fork, with its parent; branches and tags copied; the parent counts it; fork hook and create_repo activity', async () => {
  await repoHook(app, p.owner.auth, repo.path, hookBody('http://127.0.0.1:9/hook', { events: ['fork'] }));
  const res = await post(repo, p.outsider.auth);
  assert.is(res.response.status, 202);
  assertSpec('createFork', res);
  const f = res.data!;
  assert.is(f.full_name, `${p.outsider.username}/${repo.name}`);
  assert.is(f.fork, true);
  assert.is(f.description, 'the parent');
  assert.is(f.private, false);
  assert.is(f.empty, false);
  assert.is(f.default_branch, repo.default_branch);
  assert.equal(f.permissions, { admin: true, push: true, pull: true });
  assert.is(f.parent?.full_name, repo.full_name);
  assert.is(f.parent?.forks_count, 1);
  assert.is((await repoOf(app, p.owner, repo.path)).forks_count, 1);
  const got = await repoOf(app, null, { owner: p.outsider.username, repo: repo.name });
  assert.is(got.parent?.full_name, repo.full_name);

  const work = await ws.clone(ws.remote(p.outsider, p.outsider.username, repo.name));
  const refs = await ws.must(['ls-remote', '--heads', '--tags', 'origin'], work);
  assert.match(refs, /refs\/heads\/feature/);
  assert.match(refs, /refs\/tags\/v1/);

  const [delivery] = await app.services.deps.db.select().from(hookDeliveries).where(eq(hookDeliveries.event, 'fork'));
  const payload = JSON.parse(delivery!.payload) as { forkee: { full_name: string }; repository: { full_name: string; fork: boolean }; sender: { login: string } };
  assert.equal([payload.forkee.full_name, payload.repository.full_name, payload.repository.fork, payload.sender.login], [repo.full_name, f.full_name, true, p.outsider.username]);
  const activity = await feed(app, { owner: p.outsider.username, repo: repo.name }, p.outsider.auth);
  assert.ok(opTypes(activity.data).includes('create_repo'));
});

test('202 into an organization the caller may create repositories in, with another name; private when the parent is', async () => {
  const res = await post(priv, p.reader.auth, { organization: w.name, name: 'renamed' });
  assert.is(res.response.status, 403, 'a reader who cannot create repositories in the organization');
  await app.services.teams.addMember(w.teams.creators, { user: null, isMember: true, isOwner: true }, (await app.services.users.byId(p.reader.id))!);
  const ok = await post(priv, p.reader.auth, { organization: w.name, name: 'renamed' });
  assert.is(ok.response.status, 202, JSON.stringify(ok.error));
  assert.is(ok.data!.full_name, `${w.name}/renamed`);
  assert.is(ok.data!.private, true);
  assert.is(ok.data!.parent?.full_name, priv.full_name);
  const admin = await post(priv, p.admin.auth, { organization: w.name, name: 'by-admin' });
  assert.is(admin.response.status, 409, 'the organization already has a fork of it');
});

test('409: the name is taken, or the caller already has a fork', async () => {
  const own = await post(repo, p.owner.auth);
  assert.is(own.response.status, 409);
  assertSpec('createFork', own);
  assert.equal(own.error, { message: 'The repository with the same name already exists.', url: swaggerOf(app) });
  const again = await post(repo, p.outsider.auth, { name: 'second' });
  assert.is(again.response.status, 409);
  const taken = await userRepo(app, p.writer, { name: repo.name });
  assert.is((await post(repo, p.writer.auth)).response.status, 409, `${taken.full_name} exists`);
  assert.is((await repoOf(app, p.owner, repo.path)).forks_count, 1);
});

test('422 bad name or unknown organization; 403 a member who may not create; 404 hidden; 401 anonymous', async () => {
  const bad = await post(repo, p.reader.auth, { name: 'bad name' });
  assert.is(bad.response.status, 422);
  assertSpec('createFork', bad);
  assert.is((await post(repo, p.reader.auth, { organization: 'no-such-org' })).response.status, 422);
  const member = await post(repo, w.member.auth, { organization: w.name });
  assert.is(member.response.status, 403);
  assertSpec('createFork', member);
  const hidden = await post(priv, p.outsider.auth);
  assert.is(hidden.response.status, 404);
  assertSpec('createFork', hidden);
  assert.is((await post(repo, null)).response.status, 401);
});

test('deleting the parent leaves the fork whole: cloned with git, no longer a fork; deleting a fork uncounts it', async () => {
  const parent = await userRepo(app, p.owner, { auto_init: true });
  const parentPath = { owner: parent.owner.login, repo: parent.name };
  const someone = await actor(app);
  const [a, b] = await Promise.all([
    app.client(someone.auth).POST('/repos/{owner}/{repo}/forks', { params: { path: parentPath }, body: {} }),
    app.client(p.writer.auth).POST('/repos/{owner}/{repo}/forks', { params: { path: parentPath }, body: { name: 'b-fork' } }),
  ]);
  assert.equal([a.response.status, b.response.status], [202, 202]);
  assert.is((await repoOf(app, p.owner, parentPath)).forks_count, 2);
  await app.client(p.writer.auth).DELETE('/repos/{owner}/{repo}', { params: { path: { owner: p.writer.username, repo: 'b-fork' } } });
  assert.is((await repoOf(app, p.owner, parentPath)).forks_count, 1);
  assert.is((await app.client(p.owner.auth).DELETE('/repos/{owner}/{repo}', { params: { path: parentPath } })).response.status, 204);
  const left = await repoOf(app, someone, { owner: someone.username, repo: parent.name });
  assert.equal([left.fork, left.parent], [false, null]);
  const work = await ws.clone(ws.remote(someone, someone.username, parent.name));
  assert.match(await ws.must(['log', '--oneline'], work), /Initial commit/);
  await ws.must(['fsck', '--strict'], work);
});

test.run();
