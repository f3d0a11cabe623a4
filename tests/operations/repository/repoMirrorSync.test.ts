import { eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pullMirrors } from '../../../src/db/schema/index.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { eventually, hookBody, receiver, repoHook, fastHooks, type Receiver } from '../../helpers/hooks.js';
import { migrationEnv, startSource, type Source } from '../../helpers/migrations.js';
import { actor, addCollaborator, fresh, git, messageOf, repoFolder, userRepo, type Actor, type Repository } from '../../helpers/repos.js';

let src: Source;
let app: TestApp;
let me: Actor;
let reader: Actor;
let outsider: Actor;
let mirror: Repository;
let plain: Repository;
let hooks: Receiver;

test.before(async () => {
  [src, app, hooks] = await Promise.all([startSource(), startApp({ ...migrationEnv, ...fastHooks }, { workers: true }), receiver()]);
  [me, reader, outsider] = await Promise.all([actor(app), actor(app), actor(app)]);
  // A mirror of the private source: its token is stored sealed and used for every sync.
  const res = await app.client(me.auth).POST('/repos/migrate', {
    body: { clone_addr: src.cloneUrl(src.secret), repo_name: fresh('m'), mirror: true, mirror_interval: '0', private: true, auth_token: src.owner.auth.slice('token '.length) },
  });
  assert.is(res.response.status, 201, JSON.stringify(res.error));
  mirror = res.data!;
  plain = await userRepo(app, me, { auto_init: true });
  await addCollaborator(app, mirror, reader, 'read');
});
test.after(async () => {
  await Promise.all([src.close(), app.close(), hooks.close()]);
});

const sync = (repo: Repository, auth?: string) =>
  app.client(auth).POST('/repos/{owner}/{repo}/mirror-sync', { params: { path: { owner: repo.owner!.login, repo: repo.name } } });

test('the mirror: flagged, credentials sealed at rest and never shown, pushes refused', async () => {
  assert.is(mirror.mirror, true);
  const [row] = await app.services.deps.db.select().from(pullMirrors).where(eq(pullMirrors.repoId, mirror.id!));
  assert.ok(row!.credentials);
  assert.not.match(row!.credentials!, src.owner.auth.slice('token '.length));
  assert.not.match(row!.remoteUrl, /@/);
  assert.not.match(JSON.stringify(mirror), src.owner.auth.slice('token '.length));
  // The mirror fields: the interval as a Go duration, the last sync (the migration's) as its update time.
  assert.is(mirror.mirror_interval, '0s');
  assert.is(mirror.mirror_updated, `${row!.lastSyncAt!.toISOString().slice(0, 19)}Z`);
  assert.is(mirror.mirror_last_sync_at, mirror.mirror_updated);
});

test('200: a new commit at the source arrives, recorded as a push (webhook delivered); a deleted branch goes', async () => {
  await repoHook(app, me.auth, { owner: me.username, repo: mirror.name }, hookBody(hooks.url, { events: ['push', 'create', 'delete'] }));
  const work = await src.ws.clone(src.ws.remote(src.owner, src.owner.username, src.secret.name));
  const sha = await src.ws.commit(work, 'new.txt', 'new\n', 'new at the source');
  await src.ws.must(['push', '-q', 'origin', `HEAD:${src.secret.default_branch}`, 'HEAD:refs/heads/extra'], work);
  const res = await sync(mirror, me.auth);
  assert.is(res.response.status, 200);
  const dir = repoFolder(app, me.username, mirror.name);
  await eventually(() => git(dir, ['rev-parse', `refs/heads/${mirror.default_branch}`]).trim() === sha, 'the mirror to follow');
  const push = await eventually(() => hooks.of('push').find((r) => JSON.parse(r.body).ref === `refs/heads/${mirror.default_branch}`), 'the push webhook');
  assert.is(JSON.parse(push.body).after, sha);
  assert.is(JSON.parse(push.body).commits[0].message.trim(), 'new at the source');
  await eventually(() => hooks.of('create').length > 0, 'the create webhook for the new branch');
  // The source drops the branch: the next sync prunes it.
  await src.ws.must(['push', '-q', 'origin', ':refs/heads/extra'], work);
  assert.is((await sync(mirror, me.auth)).response.status, 200);
  await eventually(() => !git(dir, ['for-each-ref', 'refs/heads/extra']).trim(), 'the branch to go');
  await eventually(() => hooks.of('delete').length > 0, 'the delete webhook');
  const [row] = await app.services.deps.db.select().from(pullMirrors).where(eq(pullMirrors.repoId, mirror.id!));
  assert.is(row!.lastError, '');
  assert.ok(row!.updatedAt);
});

test('one sync at a time: a claimed mirror is not synced again; concurrent syncs move each ref once', async () => {
  const counts = await Promise.all([app.services.mirrors.sync(mirror.id!), app.services.mirrors.sync(mirror.id!), app.services.mirrors.sync(mirror.id!)]);
  assert.is(counts.filter((c) => c !== undefined).length, 1);
});

test('a token alone (in the address as https://:TOKEN@host, or as auth_password without a user) is kept, and syncs read the private source with it', async () => {
  const token = src.owner.auth.slice('token '.length);
  const at = new URL(src.cloneUrl(src.secret));
  at.password = token;
  assert.is(at.username, '');
  const made = await Promise.all([
    { clone_addr: at.toString() },
    { clone_addr: src.cloneUrl(src.secret), auth_password: token },
  ].map(async (how) => {
    const res = await app.client(me.auth).POST('/repos/migrate', { body: { ...how, repo_name: fresh('tok'), mirror: true, mirror_interval: '0', private: true } });
    assert.is(res.response.status, 201, JSON.stringify(res.error));
    return res.data!;
  }));
  const work = await src.ws.clone(src.ws.remote(src.owner, src.owner.username, src.secret.name));
  const sha = await src.ws.commit(work, `tok-${Date.now()}.txt`, 'tok\n', 'for the token mirrors');
  await src.ws.must(['push', '-q', 'origin', `HEAD:${src.secret.default_branch}`], work);
  for (const m of made) {
    const [row] = await app.services.deps.db.select().from(pullMirrors).where(eq(pullMirrors.repoId, m.id!));
    assert.ok(row!.credentials, 'the credentials are stored');
    assert.not.match(row!.credentials!, token);
    assert.not.match(row!.remoteUrl, /@/);
    assert.is((await sync(m, me.auth)).response.status, 200);
    const dir = repoFolder(app, me.username, m.name);
    await eventually(async () => {
      const [r] = await app.services.deps.db.select().from(pullMirrors).where(eq(pullMirrors.repoId, m.id!));
      assert.is(r!.lastError, '', 'the sync read the source');
      return git(dir, ['rev-parse', `refs/heads/${m.default_branch}`]).trim() === sha;
    }, 'the token mirror to follow');
  }
});

test('update_mirrors runs the due mirrors; a source that fails leaves its message as the last error', async () => {
  await app.services.deps.db.update(pullMirrors).set({ nextSyncAt: new Date(0), remoteUrl: `${src.app.url}/nobody/gone.git` }).where(eq(pullMirrors.repoId, mirror.id!));
  const admin = await actor(app, app.admin);
  const run = await app.client(admin.auth).POST('/admin/cron/{task}', { params: { path: { task: 'update_mirrors' } } });
  assert.is(run.response.status, 204);
  const row = await eventually(async () => {
    const [r] = await app.services.deps.db.select().from(pullMirrors).where(eq(pullMirrors.repoId, mirror.id!));
    return r!.lastError ? r : undefined;
  }, 'the failed sync');
  assert.match(row.lastError, /not found|repository/i);
});

test('repoEdit sets a mirror\'s interval and pruning (422 for a bad interval, nothing changed)', async () => {
  const path = { owner: me.username, repo: mirror.name };
  const edit = (body: Record<string, unknown>) => app.client(me.auth).PATCH('/repos/{owner}/{repo}', { params: { path }, body: body as never });
  const edited = await edit({ mirror_interval: '10m', enable_prune: false });
  assert.is(edited.response.status, 200);
  assert.is((edited.data as Repository).mirror_interval, '10m0s');
  const [row] = await app.services.deps.db.select().from(pullMirrors).where(eq(pullMirrors.repoId, mirror.id!));
  assert.equal([row!.intervalSeconds, row!.enablePrune], [600, false]);
  assert.ok(row!.nextSyncAt!.getTime() > Date.now());
  // The repository's JSON shows it, alone, by id and in a list; a repository that is no mirror shows none.
  const got = await app.client(reader.auth).GET('/repos/{owner}/{repo}', { params: { path } });
  assert.equal([got.data!.mirror_interval, got.data!.mirror_updated], ['10m0s', `${row!.lastSyncAt!.toISOString().slice(0, 19)}Z`]);
  assert.is((await app.client(me.auth).GET('/repositories/{id}', { params: { path: { id: mirror.id! } } })).data!.mirror_interval, '10m0s');
  const list = await app.client(me.auth).GET('/user/repos', { params: { query: { limit: 50 } } });
  const byName = new Map(list.data!.map((r) => [r.name, r]));
  assert.is(byName.get(mirror.name!)!.mirror_interval, '10m0s');
  assert.ok(byName.get(mirror.name!)!.mirror_updated);
  assert.equal([byName.get(plain.name!)!.mirror_interval, byName.get(plain.name!)!.mirror_updated], ['', null]);
  const theirs = await app.client(reader.auth).GET('/users/{username}/repos', { params: { path: { username: me.username } } });
  assert.is(theirs.data!.find((r) => r.id === mirror.id)!.mirror_interval, '10m0s');
  assert.is((await edit({ mirror_interval: 'soon', description: 'changed' })).response.status, 422);
  const [after] = await app.services.deps.db.select().from(pullMirrors).where(eq(pullMirrors.repoId, mirror.id!));
  assert.is(after!.intervalSeconds, 600);
});

test('400 for a repository that is not a mirror; 403 for a reader; 404 for an outsider of a private mirror; 401 anonymous', async () => {
  const notMirror = await sync(plain, me.auth);
  assert.is(notMirror.response.status, 400);
  assert.match(messageOf(notMirror.error), /not a mirror/);
  assert.is((await sync(mirror, reader.auth)).response.status, 403);
  assert.is((await sync(mirror, outsider.auth)).response.status, 404);
  assert.is((await sync(mirror)).response.status, 401);
});

test.run();
