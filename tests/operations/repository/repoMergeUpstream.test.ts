import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { fork } from '../../helpers/forks.js';
import { eventually, fastHooks, hookBody, receiver, repoHook, type Receiver } from '../../helpers/hooks.js';
import { actor, addCollaborator, fresh, git, messageOf, repoFolder, userRepo, type Actor, type Repository } from '../../helpers/repos.js';

type Path = { owner: string; repo: string };
let app: TestApp;
let hooks: Receiver;
let upstream: Actor;
let me: Actor;
let reader: Actor;

test.before(async () => {
  [app, hooks] = await Promise.all([startApp(fastHooks, { workers: true }), receiver()]);
  [upstream, me, reader] = await Promise.all([actor(app), actor(app), actor(app)]);
});
test.after(async () => {
  await Promise.all([app.close(), hooks.close()]);
});

/** A new base repository of `upstream` and `me`'s fork of it. */
async function pair(): Promise<{ base: Path; mine: Path; fork: Repository }> {
  const repo = await userRepo(app, upstream, { auto_init: true });
  const base = { owner: upstream.username, repo: repo.name };
  const made = await fork(app, me, base, { name: fresh('fork') });
  return { base, mine: { owner: me.username, repo: made.name }, fork: made };
}
async function write(as: Actor, path: Path, file: string, text: string, branch?: string): Promise<string> {
  const r = await app.client(as.auth).POST('/repos/{owner}/{repo}/contents/{filepath}', {
    params: { path: { ...path, filepath: file } }, body: { content: Buffer.from(text).toString('base64'), message: `write ${file}`, branch },
  });
  assert.is(r.response.status, 201, JSON.stringify(r.error));
  return r.data!.commit!.sha!;
}
const tip = (path: Path, branch = 'main') => git(repoFolder(app, path.owner, path.repo), ['rev-parse', `refs/heads/${branch}`]).trim();
const merge = (path: Path, body: { branch?: string; ff_only?: boolean } = {}, auth = me.auth) =>
  app.client(auth).POST('/repos/{owner}/{repo}/merge-upstream', { params: { path }, body });

test('200 fast-forward: the base\'s new commits, the branch moved as by a push (webhook); already up to date is a fast-forward too', async () => {
  const { base, mine } = await pair();
  await repoHook(app, me.auth, mine, hookBody(hooks.url, { events: ['push'] }));
  const sha = await write(upstream, base, 'up.txt', 'from upstream\n');
  const res = await merge(mine);
  assert.is(res.response.status, 200, JSON.stringify(res.error));
  assert.equal(res.data, { merge_style: 'fast-forward' });
  assert.is(tip(mine), sha);
  const push = await eventually(() => hooks.of('push').find((r) => JSON.parse(r.body).repository.name === mine.repo), 'the push webhook');
  assert.is(JSON.parse(push.body).after, sha);
  const again = await merge(mine);
  assert.equal([again.response.status, again.data], [200, { merge_style: 'fast-forward' }]);
  assert.is(tip(mine), sha);
});

test('200 merge: a branch with commits of its own gets a merge commit by the caller; ff_only refuses it (409, unchanged)', async () => {
  const { base, mine } = await pair();
  const own = await write(me, mine, 'mine.txt', 'mine\n');
  const theirs = await write(upstream, base, 'theirs.txt', 'theirs\n');
  const ff = await merge(mine, { ff_only: true });
  assert.is(ff.response.status, 409);
  assert.match(messageOf(ff.error), /fast-forward/);
  assert.is(tip(mine), own);
  const res = await merge(mine);
  assert.equal([res.response.status, res.data], [200, { merge_style: 'merge' }]);
  const dir = repoFolder(app, mine.owner, mine.repo);
  const head = tip(mine);
  assert.equal(git(dir, ['rev-parse', `${head}^1`, `${head}^2`]).trim().split('\n'), [own, theirs]);
  assert.is(git(dir, ['log', '-1', '--format=%an', head]).trim(), me.username);
  assert.is(git(dir, ['show', `${head}:theirs.txt`]), 'theirs\n');
});

test('another branch of the fork (`branch`); 404 for a branch the fork lacks', async () => {
  const { base, mine } = await pair();
  const made = await app.client(me.auth).POST('/repos/{owner}/{repo}/branches', { params: { path: mine }, body: { new_branch_name: 'topic' } });
  assert.is(made.response.status, 201);
  const sha = await write(upstream, base, 'b.txt', 'b\n');
  const before = tip(mine);
  assert.is((await merge(mine, { branch: 'topic' })).data!.merge_style, 'fast-forward');
  assert.equal([tip(mine, 'topic'), tip(mine)], [sha, before]);
  const missing = await merge(mine, { branch: 'nope' });
  assert.is(missing.response.status, 404);
  // A name longer than a file name may be (here 260 bytes of 'ß́a' in UTF-8) was a 500 (ENAMETOOLONG
  // reading the loose ref; contract seed 664784449): no such branch can exist.
  const long = await merge(mine, { branch: 'ß́a'.repeat(52) });
  assert.is(long.response.status, 404);
});

test('409 when the merge conflicts (nothing moved)', async () => {
  const { base, mine } = await pair();
  const own = await write(me, mine, 'same.txt', 'mine\n');
  await write(upstream, base, 'same.txt', 'theirs\n');
  const res = await merge(mine);
  assert.is(res.response.status, 409);
  assert.match(messageOf(res.error), /conflict: same\.txt/);
  assert.is(tip(mine), own);
});

test('400 for a repository that is no fork; 403 for a reader and for a protected branch; 401 anonymous; 423 archived', async () => {
  const { base, mine, fork: made } = await pair();
  const plain = await merge(base, {}, upstream.auth);
  assert.is(plain.response.status, 400);
  assert.match(messageOf(plain.error), /not a fork/);
  await addCollaborator(app, made, reader, 'read');
  assert.is((await merge(mine, {}, reader.auth)).response.status, 403);
  assert.is((await merge(mine, {}, upstream.auth)).response.status, 403);
  assert.is((await merge(mine, {}, '')).response.status, 401);
  await write(upstream, base, 'p.txt', 'p\n');
  const before = tip(mine);
  const rule = await app.client(me.auth).POST('/repos/{owner}/{repo}/branch_protections', { params: { path: mine }, body: { rule_name: 'main', enable_push: false } });
  assert.is(rule.response.status, 201, JSON.stringify(rule.error));
  assert.is((await merge(mine)).response.status, 403);
  assert.is(tip(mine), before);
  assert.is((await app.client(me.auth).PATCH('/repos/{owner}/{repo}', { params: { path: mine }, body: { archived: true } })).response.status, 200);
  assert.is((await merge(mine)).response.status, 423);
});

test.run();
