// Git LFS objects in migrations and pull mirrors (#39, #40), as Gitea 1.26 brings them: a second anvil on
// 127.0.0.1 holds repositories whose LFS objects Debian's git-lfs pushed; `POST /repos/migrate` with
// `lfs: true` brings them through the source's LFS batch API (with the migration's token for a private
// source), `media` serves them; `lfs: false` brings the pointers only; an object the source lacks is
// skipped (its pointer stays, logged), one larger than LFS_MAX_FILE_SIZE too; one that arrives broken
// fails the migration (422, nothing left); a mirror made with `lfs` brings new objects on each sync; a
// source on object storage hands out presigned URLs of another host, which are followed.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lfsMetaObjects, pullMirrors } from '../../src/db/schema/index.js';
import { lfsKey } from '../../src/storage/lfsObjects.js';
import { fetchRaw } from '../helpers/gitFixtures.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { eventually } from '../helpers/hooks.js';
import { lfsApi, lfsHome, pointerOf, pushLfsFiles } from '../helpers/lfs.js';
import { migrationEnv } from '../helpers/migrations.js';
import { startS3 } from '../helpers/s3.js';
import { actor, fresh, messageOf, repoFolder, userRepo, type Actor, type Repository } from '../helpers/repos.js';

let src: TestApp;
let app: TestApp;
let owner: Actor;
let me: Actor;
/** A private repository of the source with two LFS files, and a public one with a third. */
let secret: Repository;
let open: Repository;
let objects: Record<string, { path: string; oid: string; size: number }>;
let openObjects: Record<string, { path: string; oid: string; size: number }>;
const home = lfsHome();
const logLines: string[] = [];

test.before(async () => {
  [src, app] = await Promise.all([
    startApp(),
    startApp({ ...migrationEnv, MIGRATIONS_BLOCKED_DOMAINS: '*.blocked.example' }, { logLines }),
  ]);
  [owner, me] = await Promise.all([actor(src), actor(app)]);
  [secret, open] = await Promise.all([
    userRepo(src, owner, { name: fresh('lfs'), auto_init: true, private: true, default_branch: 'main' }),
    userRepo(src, owner, { name: fresh('open'), auto_init: true, default_branch: 'main' }),
  ]);
  objects = await pushLfsFiles(src, owner, secret.full_name!, { 'a.bin': 300 * 1024, 'b.bin': 2 * 1024 * 1024 }, home);
  openObjects = await pushLfsFiles(src, owner, open.full_name!, { 'c.bin': 64 * 1024 }, home);
});
test.after(async () => {
  await Promise.all([src.close(), app.close()]);
});

const cloneUrl = (repo: Repository) => `${src.url}/${repo.full_name}.git`;
const token = () => owner.auth.slice('token '.length);
const migrate = (body: Record<string, unknown>) => app.client(me.auth).POST('/repos/migrate', { body: body as never });
const media = (name: string, file: string) => fetchRaw(app, `/repos/${me.username}/${name}/media/${file}`, me.auth);
const recorded = async (repoId: number) =>
  (await app.services.deps.db.select({ oid: lfsMetaObjects.oid, size: lfsMetaObjects.size }).from(lfsMetaObjects).where(eq(lfsMetaObjects.repoId, repoId)))
    .map((r) => `${r.oid}:${Number(r.size)}`).sort();

test('lfs: true from a private source with a token: every object arrives; media serves its bytes, raw the pointer', async () => {
  const name = fresh('m');
  const res = await migrate({ clone_addr: cloneUrl(secret), repo_name: name, auth_token: token(), private: true, lfs: true });
  assert.is(res.response.status, 201, JSON.stringify(res.error));
  for (const file of ['a.bin', 'b.bin']) {
    const got = await media(name, file);
    assert.is(got.status, 200);
    assert.is(got.headers.get('content-length'), String(objects[file]!.size));
    assert.ok(got.bytes.equals(readFileSync(objects[file]!.path)), `${file}: the object, not its pointer`);
    const raw = await fetchRaw(app, `/repos/${me.username}/${name}/raw/${file}`, me.auth);
    assert.is(raw.bytes.toString(), pointerOf(objects[file]!));
    const stored = await app.services.lfs.store.stat(lfsKey(objects[file]!.oid));
    assert.is(stored?.size, objects[file]!.size);
  }
  assert.equal(await recorded(res.data!.id!), Object.values(objects).map((o) => `${o.oid}:${o.size}`).sort());
  // Its size (KB) counts its git folder and its LFS objects, as Gitea's after a migration; its JSON keeps no token.
  assert.ok(res.data!.size! * 1024 >= objects['a.bin']!.size + objects['b.bin']!.size, `size ${res.data!.size}`);
  assert.not.match(JSON.stringify(res.data), token());
});

test('lfs: false (or left out) brings the pointers only', async () => {
  for (const lfs of [false, undefined]) {
    const name = fresh('p');
    const res = await migrate({ clone_addr: cloneUrl(secret), repo_name: name, auth_token: token(), ...(lfs === undefined ? {} : { lfs }) });
    assert.is(res.response.status, 201, JSON.stringify(res.error));
    const got = await media(name, 'a.bin');
    assert.is(got.status, 200);
    assert.is(got.bytes.toString(), pointerOf(objects['a.bin']!), 'the pointer: the repository holds no object (even one the store has)');
    assert.equal(await recorded(res.data!.id!), []);
    assert.ok(res.data!.size! > 0 && res.data!.size! * 1024 < objects['b.bin']!.size, `size ${res.data!.size}: the git folder only`);
  }
});

test('lfs_endpoint: an explicit endpoint on the source is used (with the token); a refused one is 422 before anything is made', async () => {
  const name = fresh('e');
  const res = await migrate({ clone_addr: cloneUrl(secret), repo_name: name, auth_token: token(), lfs: true, lfs_endpoint: `${src.url}/${secret.full_name}.git/info/lfs/` });
  assert.is(res.response.status, 201, JSON.stringify(res.error));
  assert.ok((await media(name, 'b.bin')).bytes.equals(readFileSync(objects['b.bin']!.path)));
  // An endpoint of another repository of the source has no such objects: their pointers stay.
  const other = fresh('e');
  const wrong = await migrate({ clone_addr: cloneUrl(secret), repo_name: other, auth_token: token(), lfs: true, lfs_endpoint: `${src.url}/${open.full_name}.git/info/lfs` });
  assert.is(wrong.response.status, 201, JSON.stringify(wrong.error));
  assert.equal(await recorded(wrong.data!.id!), []);
  for (const endpoint of ['http://lfs.blocked.example/a/b.git/info/lfs', 'ftp://127.0.0.1/x', 'not a url', 'http://%zz@127.0.0.1/x/info/lfs']) {
    const refused = fresh('e');
    const bad = await migrate({ clone_addr: cloneUrl(secret), repo_name: refused, auth_token: token(), lfs: true, lfs_endpoint: endpoint });
    assert.is(bad.response.status, 422, endpoint);
    assert.match(messageOf(bad.error), /disallowed hosts|lfs_endpoint/);
    assert.is((await app.client(me.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: me.username, repo: refused } } })).response.status, 404);
  }
  // Without lfs, lfs_endpoint is not looked at (as Gitea).
  const ignored = await migrate({ clone_addr: cloneUrl(open), repo_name: fresh('e'), lfs_endpoint: 'http://lfs.blocked.example/x' });
  assert.is(ignored.response.status, 201, JSON.stringify(ignored.error));
});

test('a hostile LFS endpoint whose batch answer never ends: 422 once it passed 1 MiB, not read further, no repository', async () => {
  const { createServer } = await import('node:http');
  let sent = 0;
  let closed = false;
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/vnd.git-lfs+json' });
    res.write('{"objects":[]}');
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    // Valid JSON as far as it goes: 64 MB of white space after the answer (whole, it would be a 201).
    const pump = () => {
      while (sent < 64 * 1024 * 1024 && !closed) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => { closed = true; });
    pump();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const { port } = server.address() as { port: number };
    const name = fresh('h');
    const res = await migrate({ clone_addr: cloneUrl(secret), repo_name: name, auth_token: token(), lfs: true, lfs_endpoint: `http://127.0.0.1:${port}/info/lfs` });
    assert.is(res.response.status, 422, JSON.stringify(res.error));
    assert.match(messageOf(res.error), /batch request with more than 1048576 bytes/);
    assert.ok(sent < 16 * 1024 * 1024, `read ${sent} bytes`);
    assert.is((await app.client(me.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: me.username, repo: name } } })).response.status, 404);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

test('an object the source does not have: 201, its pointer stays and the others arrive (Gitea logs and goes on)', async () => {
  const repo = await userRepo(src, owner, { name: fresh('ghost'), auto_init: true, default_branch: 'main' });
  const theirs = await pushLfsFiles(src, owner, repo.full_name!, { 'real.bin': 4096 }, home);
  const ghost = { oid: randomBytes(32).toString('hex'), size: 12345 };
  const put = await src.client(owner.auth).POST('/repos/{owner}/{repo}/contents/{filepath}', {
    params: { path: { owner: owner.username, repo: repo.name!, filepath: 'ghost.dat' } },
    body: { content: Buffer.from(pointerOf(ghost)).toString('base64'), message: 'a pointer without its object' },
  });
  assert.is(put.response.status, 201, JSON.stringify(put.error));
  const name = fresh('g');
  const res = await migrate({ clone_addr: cloneUrl(repo), repo_name: name, lfs: true });
  assert.is(res.response.status, 201, JSON.stringify(res.error));
  assert.is((await media(name, 'ghost.dat')).bytes.toString(), pointerOf(ghost));
  assert.ok((await media(name, 'real.bin')).bytes.equals(readFileSync(theirs['real.bin']!.path)));
  assert.equal(await recorded(res.data!.id!), [`${theirs['real.bin']!.oid}:4096`]);
  assert.ok(logLines.some((l) => l.includes(ghost.oid) && l.includes('missing at the source')), 'the skipped object is logged');
});

test('an object larger than LFS_MAX_FILE_SIZE is not brought (its pointer stays), as Gitea', async () => {
  const before = app.config.lfs.maxFileSize;
  app.config.lfs.maxFileSize = 1024 * 1024;
  try {
    const name = fresh('big');
    const res = await migrate({ clone_addr: cloneUrl(secret), repo_name: name, auth_token: token(), lfs: true });
    assert.is(res.response.status, 201, JSON.stringify(res.error));
    assert.equal(await recorded(res.data!.id!), [`${objects['a.bin']!.oid}:${objects['a.bin']!.size}`]);
    assert.is((await media(name, 'b.bin')).bytes.toString(), pointerOf(objects['b.bin']!));
  } finally {
    app.config.lfs.maxFileSize = before;
  }
});

test('an object that arrives broken (its bytes do not hash to its oid): 422 naming it, no repository, no folder', async () => {
  const repo = await userRepo(src, owner, { name: fresh('broken'), auto_init: true, default_branch: 'main' });
  const theirs = await pushLfsFiles(src, owner, repo.full_name!, { 'bad.bin': 8192 }, home);
  // The source's store now holds other bytes of the same size under that oid.
  await src.services.lfs.store.put(lfsKey(theirs['bad.bin']!.oid), Readable.from([randomBytes(8192)]));
  const name = fresh('b');
  const res = await migrate({ clone_addr: cloneUrl(repo), repo_name: name, lfs: true });
  assert.is(res.response.status, 422);
  assert.match(messageOf(res.error), new RegExp(`LFS object ${theirs['bad.bin']!.oid} .*does not match`));
  assert.is((await app.client(me.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: me.username, repo: name } } })).response.status, 404);
  assert.not.ok(existsSync(repoFolder(app, me.username, name)));
  // Nothing was kept under that oid: a refused object never appears in the store.
  assert.is(await app.services.lfs.store.stat(lfsKey(theirs['bad.bin']!.oid)), undefined);
});

test('a pull mirror made with lfs: lfs kept in its row; a new LFS object at the source arrives with the next sync', async () => {
  const name = fresh('mirror');
  const res = await migrate({ clone_addr: cloneUrl(secret), repo_name: name, auth_token: token(), private: true, mirror: true, mirror_interval: '0', lfs: true });
  assert.is(res.response.status, 201, JSON.stringify(res.error));
  const [row] = await app.services.deps.db.select().from(pullMirrors).where(eq(pullMirrors.repoId, res.data!.id!));
  assert.is(row!.lfs, true);
  assert.is(row!.lfsEndpoint, '');
  assert.ok((await media(name, 'a.bin')).bytes.equals(readFileSync(objects['a.bin']!.path)));
  const added = await pushLfsFiles(src, owner, secret.full_name!, { 'new.bin': 100 * 1024 }, home);
  const sync = await app.client(me.auth).POST('/repos/{owner}/{repo}/mirror-sync', { params: { path: { owner: me.username, repo: name } } });
  assert.is(sync.response.status, 200);
  const got = await eventually(async () => {
    const r = await media(name, 'new.bin');
    return r.status === 200 && r.bytes.length === added['new.bin']!.size ? r : undefined;
  }, 'the new object to arrive with the sync');
  assert.ok(got.bytes.equals(readFileSync(added['new.bin']!.path)));
  const [held] = await app.services.deps.db.select().from(lfsMetaObjects)
    .where(and(eq(lfsMetaObjects.repoId, res.data!.id!), eq(lfsMetaObjects.oid, added['new.bin']!.oid)));
  assert.is(Number(held!.size), added['new.bin']!.size);
  // The repository's size counts its LFS objects once the sync recorded its push.
  const repo = await eventually(async () => {
    const r = await app.client(me.auth).GET('/repos/{owner}/{repo}', { params: { path: { owner: me.username, repo: name } } });
    return (r.data!.size ?? 0) * 1024 >= added['new.bin']!.size + objects['b.bin']!.size ? r.data : undefined;
  }, 'the size to count the objects');
  assert.ok(repo);
  // A mirror made without lfs does not bring them.
  const plain = fresh('mirror');
  const noLfs = await migrate({ clone_addr: cloneUrl(open), repo_name: plain, mirror: true, mirror_interval: '0' });
  assert.is(noLfs.response.status, 201);
  const [plainRow] = await app.services.deps.db.select().from(pullMirrors).where(eq(pullMirrors.repoId, noLfs.data!.id!));
  assert.is(plainRow!.lfs, false);
  assert.is((await media(plain, 'c.bin')).bytes.toString(), pointerOf(openObjects['c.bin']!));
});

test('a source on object storage with SERVE_DIRECT: its batch answer names presigned URLs of another host, which are judged and followed', async () => {
  const s3 = await startS3();
  const direct = await startApp({ ...s3.env, STORAGE_SERVE_DIRECT: 'true' });
  try {
    const them = await actor(direct);
    const repo = await userRepo(direct, them, { name: fresh('s3'), auto_init: true, private: true, default_branch: 'main' });
    const theirs = await pushLfsFiles(direct, them, repo.full_name!, { 'd.bin': 200 * 1024 }, home);
    const batch = await lfsApi(direct, repo.full_name!, 'POST', '/objects/batch', { auth: them.auth, json: { operation: 'download', objects: [{ oid: theirs['d.bin']!.oid, size: 200 * 1024 }] } });
    assert.ok(String(batch.json.objects[0].actions.download.href).startsWith(`http://${s3.endpoint}/`), 'the source hands out a presigned URL');
    const name = fresh('s3');
    const res = await migrate({ clone_addr: `${direct.url}/${repo.full_name}.git`, repo_name: name, auth_token: them.auth.slice('token '.length), lfs: true });
    assert.is(res.response.status, 201, JSON.stringify(res.error));
    assert.ok((await media(name, 'd.bin')).bytes.equals(readFileSync(theirs['d.bin']!.path)));
  } finally {
    await direct.close();
    await s3.close();
  }
});

test.run();
