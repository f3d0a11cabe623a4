import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pushMirrors } from '../../../src/db/schema/index.js';
import { gitWorkspace } from '../../helpers/events.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { eventually } from '../../helpers/hooks.js';
import { pushMirrorEnv, pushMirrorWorld, startTarget, statusIs, type PushMirror, type PushMirrorWorld, type PushTarget } from '../../helpers/pushMirrors.js';
import { git, repoFolder, userRepo } from '../../helpers/repos.js';

let app: TestApp;
let w: PushMirrorWorld;
let target: PushTarget;
let ws: ReturnType<typeof gitWorkspace>;
let work: string;

test.before(async () => {
  [app, target] = await Promise.all([startApp(pushMirrorEnv, { pushMirrors: true }), startTarget()]);
  w = await pushMirrorWorld(app);
  ws = gitWorkspace(app);
  work = await ws.clone(ws.remote(w.owner, w.owner.username, w.repo.name));
});
test.after(async () => {
  ws.close();
  await Promise.all([app.close(), target.close()]);
});

const sync = (auth: string, path = w.path) => app.client(auth).POST('/repos/{owner}/{repo}/push_mirrors-sync', { params: { path } });
const get = async (name: string) =>
  (await app.client(w.owner.auth).GET('/repos/{owner}/{repo}/push_mirrors/{name}', { params: { path: { ...w.path, name } } })).data!;
const rowOf = async (name: string) => (await app.services.deps.db.select().from(pushMirrors).where(eq(pushMirrors.remoteName, name)))[0]!;
const sourceRefs = () => new Map(git(repoFolder(app, w.owner.username, w.repo.name), ['for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads', 'refs/tags'])
  .split('\n').filter(Boolean).map((l) => l.split(' ') as [string, string]));
const toTarget = async (over: Partial<{ interval: string; sync_on_commit: boolean; remote_password: string; remote_address: string }> = {}): Promise<PushMirror> => {
  const res = await w.add({ remote_address: target.url, remote_username: target.user.username, remote_password: target.user.password, interval: '0', ...over });
  statusIs(res, 200);
  return res.data!;
};
const removeAll = async () => {
  await app.services.deps.db.delete(pushMirrors).where(eq(pushMirrors.repoId, w.repo.id!));
};

test('200: branches and tags pushed to the other anvil with the sealed credentials; last_update set, no error; a deleted branch goes', async () => {
  const m = await toTarget();
  await ws.must(['checkout', '-q', '-b', 'feature'], work);
  await ws.commit(work, 'f.txt', 'feature\n', 'feature work');
  await ws.must(['tag', 'v1'], work);
  await ws.must(['push', '-q', 'origin', 'feature', 'v1'], work);
  statusIs(await sync(w.owner.auth), 200);
  assert.equal(await target.refs(), sourceRefs());
  assert.ok((await target.refs()).has('refs/tags/v1'));
  const shown = await get(m.remote_name);
  assert.is(shown.last_error, '');
  assert.ok(shown.last_update && Math.abs(Date.parse(shown.last_update) - Date.now()) < 60_000);
  // The branch deleted here is deleted there by the next sync.
  await ws.must(['push', '-q', 'origin', ':feature'], work);
  statusIs(await sync(w.owner.auth), 200);
  assert.ok(!(await target.refs()).has('refs/heads/feature'));
  assert.equal(await target.refs(), sourceRefs());
  await removeAll();
});

test('sync_on_commit: a push is followed by a sync that carries it; a mirror without it is left alone', async () => {
  const on = await toTarget({ sync_on_commit: true });
  const off = await toTarget({ sync_on_commit: false, remote_address: `${target.app.url}/nobody/never.git` });
  await ws.must(['checkout', '-q', w.repo.default_branch!], work);
  const sha = await ws.commit(work, 'c.txt', 'on commit\n', 'pushed on commit');
  await ws.must(['push', '-q', 'origin', w.repo.default_branch!], work);
  await eventually(async () => (await target.refs()).get(`refs/heads/${w.repo.default_branch}`) === sha, 'the commit at the target');
  await eventually(async () => (await rowOf(on.remote_name)).wantedAt === null, 'the mark cleared');
  const untouched = await rowOf(off.remote_name);
  assert.equal([untouched.lastUpdate, untouched.wantedAt], [null, null]);
  await removeAll();
});

test('a sync at a time: concurrent rounds push a marked mirror once; a mark made during a sync is kept for the next', async () => {
  const m = await toTarget({ sync_on_commit: true });
  const mark = () => app.services.deps.db.update(pushMirrors).set({ wantedAt: new Date() }).where(eq(pushMirrors.remoteName, m.remote_name));
  await mark();
  const s = app.services.pushMirrors;
  const rounds = await Promise.all([s.drain(), s.drain(), s.drain()]);
  assert.is(rounds.reduce((a, b) => a + b, 0), 1);
  // A claimed mirror is not taken again until its lease lapses.
  await mark();
  await app.services.deps.db.update(pushMirrors).set({ claimedUntil: new Date(Date.now() + 60_000) }).where(eq(pushMirrors.remoteName, m.remote_name));
  assert.is(await s.drain(), 0);
  await app.services.deps.db.update(pushMirrors).set({ claimedUntil: new Date(Date.now() - 1000) }).where(eq(pushMirrors.remoteName, m.remote_name));
  assert.is(await s.drain(), 1);
  await removeAll();
  // A remote that answers slowly keeps the sync under way while a push marks the mirror again.
  const slow = createServer((_req, res) => void setTimeout(() => res.writeHead(404).end(), 700));
  await new Promise<void>((res) => slow.listen(0, '127.0.0.1', res));
  try {
    const held = await toTarget({ sync_on_commit: true, remote_address: `http://127.0.0.1:${(slow.address() as AddressInfo).port}/x/y.git` });
    await app.services.deps.db.update(pushMirrors).set({ wantedAt: new Date(Date.now() - 5000) }).where(eq(pushMirrors.remoteName, held.remote_name));
    const round = s.runOnce();
    await eventually(async () => (await rowOf(held.remote_name)).claimedUntil !== null, 'the claim');
    await app.services.deps.db.update(pushMirrors).set({ wantedAt: new Date() }).where(eq(pushMirrors.remoteName, held.remote_name));
    assert.is(await round, true);
    assert.ok((await rowOf(held.remote_name)).wantedAt, 'the new mark kept');
    assert.is(await s.drain(), 1);
    assert.is((await rowOf(held.remote_name)).wantedAt, null);
  } finally {
    slow.closeAllConnections();
    await new Promise<void>((res) => slow.close(() => res()));
    await removeAll();
  }
});

test('update_mirrors pushes the mirrors whose interval came, and schedules the next', async () => {
  const m = await toTarget({ interval: '1h' });
  const sha = await ws.commit(work, 'i.txt', 'interval\n', 'pushed on interval');
  await ws.must(['push', '-q', 'origin', w.repo.default_branch!], work);
  await app.services.deps.db.update(pushMirrors).set({ nextSyncAt: new Date(0) }).where(eq(pushMirrors.remoteName, m.remote_name));
  statusIs(await app.client(w.siteAdmin.auth).POST('/admin/cron/{task}', { params: { path: { task: 'update_mirrors' } } }), 204);
  await eventually(async () => (await target.refs()).get(`refs/heads/${w.repo.default_branch}`) === sha, 'the commit at the target');
  const row = await eventually(async () => {
    const r = await rowOf(m.remote_name);
    return r.nextSyncAt && r.nextSyncAt.getTime() > Date.now() + 3000_000 ? r : undefined;
  }, 'the next sync scheduled an hour on');
  assert.ok(row.lastUpdate);
  await removeAll();
});

test('a remote that fails: 200, its message kept as last_error (no credential in it), the other mirrors still pushed', async () => {
  const gone = await toTarget({ remote_address: `${target.app.url}/nobody/gone.git` });
  const wrong = await toTarget({ remote_password: 'not-the-password' });
  const good = await toTarget();
  const sha = await ws.commit(work, 'e.txt', 'errors\n', 'after failures');
  await ws.must(['push', '-q', 'origin', w.repo.default_branch!], work);
  statusIs(await sync(w.owner.auth), 200);
  assert.is((await target.refs()).get(`refs/heads/${w.repo.default_branch}`), sha);
  const [g, x, ok] = [await get(gone.remote_name), await get(wrong.remote_name), await get(good.remote_name)];
  assert.ok(g.last_error.length > 0, 'gone');
  assert.ok(x.last_error.length > 0, 'wrong password');
  assert.not.match(x.last_error, /not-the-password/);
  assert.is(ok.last_error, '');
  assert.ok(g.last_update);
  await removeAll();
});

test('200 for a repository admin and a site admin; 403 for a writer and a reader; 404 for an outsider; 401 anonymous; 423 archived', async () => {
  statusIs(await sync(w.repoAdmin.auth), 200, 'repo admin');
  statusIs(await sync(w.siteAdmin.auth), 200, 'site admin');
  statusIs(await sync(w.writer.auth), 403, 'writer');
  statusIs(await sync(w.reader.auth), 403, 'reader');
  statusIs(await sync(w.outsider.auth), 404, 'outsider');
  statusIs(await sync(''), 401, 'anonymous');
  const archived = await userRepo(app, w.owner, { auto_init: true });
  const path = { owner: w.owner.username, repo: archived.name };
  statusIs(await app.client(w.owner.auth).PATCH('/repos/{owner}/{repo}', { params: { path }, body: { archived: true } }), 200);
  statusIs(await sync(w.owner.auth, path), 423);
});

test.run();
