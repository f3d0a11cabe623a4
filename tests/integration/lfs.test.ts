// Git LFS with Debian's git-lfs: a 20 MB binary pushed over HTTP is cloned elsewhere over HTTP and SSH;
// a reader cannot upload objects; a wrong oid or size is refused and nothing is kept; locks; the batch
// API's permissions, tokens and LFS_MAX_FILE_SIZE; deleting a repository frees objects only it held.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lfsKey } from '../../src/services/lfs/lfs.js';
import { startSshServer, type SshServer } from '../../src/transport/ssh.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { people, sharedRepo, type People, type Repo } from '../helpers/issues.js';
import { binary, gitLfs, httpRemote, lfsApi, lfsHome, object, uploadObject } from '../helpers/lfs.js';

const run = promisify(execFile);

let app: TestApp;
let ssh: SshServer;
let p: People;
let repo: Repo;
const home = lfsHome();
const { env } = home;
let big: { path: string; oid: string; size: number };

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

test.before(async () => {
  app = await startApp({ SSH_PORT: String(await freePort()), SSH_DOMAIN: '127.0.0.1' });
  ssh = await startSshServer(app.services, app.config, pino({ level: 'silent' }));
  p = await people(app);
  repo = await sharedRepo(app, p, { private: true });
});
test.after(async () => {
  await ssh?.close();
  await app.close();
});

test('git-lfs pushes a 20 MB binary over HTTP; a reader clones it over HTTP with the content in place', async () => {
  const work = join(home.dir, 'push');
  assert.is((await gitLfs(env, home.dir, ['clone', '-q', httpRemote(app, p.writer, repo.full_name), work])).code, 0);
  assert.is((await gitLfs(env, work, ['lfs', 'track', '*.bin'])).code, 0);
  big = binary(work, 'big.bin', 20 * 1024 * 1024);
  await gitLfs(env, work, ['add', '.gitattributes', 'big.bin']);
  await gitLfs(env, work, ['commit', '-q', '-m', 'a big binary']);
  const push = await gitLfs(env, work, ['push', 'origin', 'HEAD:main']);
  assert.is(push.code, 0, push.stderr);
  const stored = await app.services.lfs.store.stat(lfsKey(big.oid));
  assert.is(stored?.size, big.size, 'the object is in the store');

  const clone = join(home.dir, 'reader-http');
  const r = await gitLfs(env, home.dir, ['clone', '-q', httpRemote(app, p.reader, repo.full_name), clone]);
  assert.is(r.code, 0, r.stderr);
  assert.ok(readFileSync(join(clone, 'big.bin')).equals(readFileSync(big.path)), 'the clone has the object, not its pointer');
});

test('over SSH: git-lfs-authenticate hands a token out and the clone fetches the LFS content', async () => {
  const keyFile = join(home.dir, 'reader-key');
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', keyFile]);
  const added = await app.client(p.reader.auth).POST('/user/keys', { body: { title: 'lfs', key: readFileSync(`${keyFile}.pub`, 'utf8').trim() } });
  assert.is(added.response.status, 201);
  const sshEnv = { ...env, GIT_SSH_COMMAND: `ssh -i ${keyFile} -o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR` };
  const clone = join(home.dir, 'reader-ssh');
  const r = await gitLfs(sshEnv, home.dir, ['clone', '-q', `ssh://git@127.0.0.1:${ssh.port}/${repo.full_name}.git`, clone]);
  assert.is(r.code, 0, r.stderr);
  assert.ok(readFileSync(join(clone, 'big.bin')).equals(readFileSync(big.path)));
  // The reader's SSH token downloads but does not upload.
  const auth = await run('ssh', ['-i', keyFile, '-p', String(ssh.port), '-o', 'IdentitiesOnly=yes', '-o', 'BatchMode=yes', '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR',
    'git@127.0.0.1', `git-lfs-authenticate ${repo.full_name}.git download`]);
  const answer = JSON.parse(auth.stdout) as { href: string; header: { Authorization: string } };
  assert.is(answer.href, `${app.config.rootUrl}${repo.full_name}.git/info/lfs`);
  const down = await lfsApi(app, repo.full_name, 'POST', '/objects/batch', { auth: answer.header.Authorization, json: { operation: 'download', objects: [{ oid: big.oid, size: big.size }] } });
  assert.is(down.status, 200);
  assert.ok(down.json.objects[0].actions.download.href);
  const up = await lfsApi(app, repo.full_name, 'POST', '/objects/batch', { auth: answer.header.Authorization, json: { operation: 'upload', objects: [{ oid: big.oid, size: big.size }] } });
  assert.is(up.status, 403);
  const refused = await run('ssh', ['-i', keyFile, '-p', String(ssh.port), '-o', 'IdentitiesOnly=yes', '-o', 'BatchMode=yes', '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR',
    'git@127.0.0.1', `git-lfs-authenticate ${repo.full_name}.git upload`]).then(() => 0, (e: { code: number }) => e.code);
  assert.is.not(refused, 0, 'a reader gets no upload token');
  // Another repository is not reached with this token.
  const other = await sharedRepo(app, p);
  const elsewhere = await lfsApi(app, other.full_name, 'POST', '/objects/batch', { auth: answer.header.Authorization, json: { operation: 'download', objects: [{ oid: big.oid, size: big.size }] } });
  assert.is(elsewhere.status, 404);
});

test('a reader cannot upload objects: the batch API refuses and so does git-lfs push', async () => {
  const obj = object('reader content\n');
  assert.is(await uploadObject(app, repo.full_name, p.reader.basic, obj), 403);
  const put = await lfsApi(app, repo.full_name, 'PUT', `/objects/${obj.oid}/${obj.size}`, { auth: p.reader.basic, body: obj.content });
  assert.is(put.status, 403);
  const work = join(home.dir, 'reader-http');
  writeFileSync(join(work, 'reader.bin'), 'reader binary\n');
  await gitLfs(env, work, ['add', 'reader.bin']);
  await gitLfs(env, work, ['commit', '-q', '-m', 'reader']);
  const push = await gitLfs(env, work, ['push', 'origin', 'HEAD:reader']);
  assert.is.not(push.code, 0);
});

test('who reaches the batch API: anonymous 401 with LFS-Authenticate, an outsider 404, a read token downloads but does not upload', async () => {
  const q = { operation: 'download', objects: [{ oid: big.oid, size: big.size }] };
  const anon = await lfsApi(app, repo.full_name, 'POST', '/objects/batch', { json: q });
  assert.is(anon.status, 401);
  assert.ok(anon.headers.get('lfs-authenticate'));
  assert.is((await lfsApi(app, repo.full_name, 'POST', '/objects/batch', { auth: p.outsider.basic, json: q })).status, 404);
  const readToken = await app.token(p.writer, ['read:repository']);
  const down = await lfsApi(app, repo.full_name, 'POST', '/objects/batch', { auth: readToken, json: q });
  assert.is(down.status, 200);
  assert.is(down.json.objects[0].size, big.size);
  const up = await lfsApi(app, repo.full_name, 'POST', '/objects/batch', { auth: readToken, json: { ...q, operation: 'upload' } });
  assert.is(up.status, 403);
  const missing = object('never uploaded');
  const none = await lfsApi(app, repo.full_name, 'POST', '/objects/batch', { auth: p.reader.basic, json: { operation: 'download', objects: [{ oid: missing.oid, size: missing.size }, { oid: 'nope', size: 1 }] } });
  assert.is(none.status, 200);
  assert.is(none.json.objects[0].error.code, 404);
  assert.is(none.json.objects[1].error.code, 422);
  // A download with a Range header answers the part.
  const part = await lfsApi(app, repo.full_name, 'GET', `/objects/${big.oid}`, { auth: p.reader.basic, headers: { Range: 'bytes=10-19' } });
  assert.is(part.status, 206);
  assert.ok(part.bytes.equals(readFileSync(big.path).subarray(10, 20)));
});

test('a wrong oid or size is refused and nothing is kept; LFS_MAX_FILE_SIZE refuses larger objects', async () => {
  const obj = object('the real content\n');
  const wrongOid = object('other content\n').oid;
  const badHash = await lfsApi(app, repo.full_name, 'PUT', `/objects/${wrongOid}/${obj.size}`, { auth: p.writer.basic, body: obj.content });
  assert.is(badHash.status, 422, JSON.stringify(badHash.json));
  assert.is(await app.services.lfs.store.stat(lfsKey(wrongOid)), undefined);
  const badSize = await lfsApi(app, repo.full_name, 'PUT', `/objects/${obj.oid}/${obj.size + 5}`, { auth: p.writer.basic, body: obj.content });
  assert.is(badSize.status, 422);
  assert.is(await app.services.lfs.store.stat(lfsKey(obj.oid)), undefined);
  const verify = await lfsApi(app, repo.full_name, 'POST', '/verify', { auth: p.writer.basic, json: { oid: obj.oid, size: obj.size } });
  assert.is(verify.status, 404);
  assert.is(await uploadObject(app, repo.full_name, p.writer.basic, obj), 200);
  assert.is((await lfsApi(app, repo.full_name, 'POST', '/verify', { auth: p.writer.basic, json: { oid: obj.oid, size: obj.size } })).status, 200);
  assert.is((await lfsApi(app, repo.full_name, 'POST', '/verify', { auth: p.writer.basic, json: { oid: obj.oid, size: obj.size + 1 } })).status, 422);

  const before = app.config.lfs.maxFileSize;
  app.config.lfs.maxFileSize = 10;
  try {
    const large = object('more than ten bytes');
    const batch = await lfsApi(app, repo.full_name, 'POST', '/objects/batch', { auth: p.writer.basic, json: { operation: 'upload', objects: [{ oid: large.oid, size: large.size }] } });
    assert.is(batch.json.objects[0].error.code, 413);
    const put = await lfsApi(app, repo.full_name, 'PUT', `/objects/${large.oid}/${large.size}`, { auth: p.writer.basic, body: large.content });
    assert.is(put.status, 413);
  } finally {
    app.config.lfs.maxFileSize = before;
  }
});

test('locks: git lfs lock and unlock; another writer may not unlock without force, a repository admin may force', async () => {
  const work = join(home.dir, 'push');
  const lock = await gitLfs(env, work, ['lfs', 'lock', 'big.bin', '--json']);
  assert.is(lock.code, 0, lock.stderr);
  const [made] = JSON.parse(lock.stdout) as { id: string; path: string }[];
  assert.ok(made, lock.stdout);
  assert.is(made!.path, 'big.bin');
  const again = await lfsApi(app, repo.full_name, 'POST', '/locks', { auth: p.writer.basic, json: { path: 'big.bin' } });
  assert.is(again.status, 409);
  assert.is(again.json.lock.id, made!.id);
  const list = await lfsApi(app, repo.full_name, 'GET', '/locks?path=big.bin', { auth: p.reader.basic });
  assert.is(list.status, 200);
  assert.is(list.json.locks[0].owner.name, p.writer.username);
  assert.is((await lfsApi(app, repo.full_name, 'POST', '/locks', { auth: p.reader.basic, json: { path: 'x.bin' } })).status, 403);
  const verify = await lfsApi(app, repo.full_name, 'POST', '/locks/verify', { auth: p.owner.basic, json: {} });
  assert.is(verify.json.theirs.length, 1);
  assert.is(verify.json.ours.length, 0);
  // Another writer: not without force; a writer who is not an administrator: not even with it.
  const w2 = await app.user();
  await app.client(p.owner.auth).PUT('/repos/{owner}/{repo}/collaborators/{collaborator}', { params: { path: { ...repo.path, collaborator: w2.username } }, body: { permission: 'write' } });
  assert.is((await lfsApi(app, repo.full_name, 'POST', `/locks/${made!.id}/unlock`, { auth: w2.basic, json: {} })).status, 403);
  assert.is((await lfsApi(app, repo.full_name, 'POST', `/locks/${made!.id}/unlock`, { auth: w2.basic, json: { force: true } })).status, 403);
  const unlock = await gitLfs(env, work, ['lfs', 'unlock', 'big.bin']);
  assert.is(unlock.code, 0, unlock.stderr);
  assert.is((await lfsApi(app, repo.full_name, 'GET', '/locks', { auth: p.reader.basic })).json.locks.length, 0);
  const again2 = await lfsApi(app, repo.full_name, 'POST', '/locks', { auth: p.writer.basic, json: { path: 'big.bin' } });
  const forced = await lfsApi(app, repo.full_name, 'POST', `/locks/${again2.json.lock.id}/unlock`, { auth: p.owner.basic, json: { force: true } });
  assert.is(forced.status, 200);
});

test('a fork reads its parent\'s objects; deleting a repository frees objects no other repository holds', async () => {
  const only = object('only in this repository\n');
  const solo = await sharedRepo(app, p);
  assert.is(await uploadObject(app, solo.full_name, p.owner.basic, only), 200);
  const fork = await app.client(p.outsider.auth).POST('/repos/{owner}/{repo}/forks', { params: { path: solo.path }, body: {} });
  assert.is(fork.response.status, 202, JSON.stringify(fork.error));
  const fromFork = await lfsApi(app, fork.data!.full_name, 'GET', `/objects/${only.oid}`, { auth: p.outsider.basic });
  assert.is(fromFork.status, 200);
  assert.ok(fromFork.bytes.equals(only.content));
  // The same object in two repositories: it stays while one holds it.
  assert.is(await uploadObject(app, repo.full_name, p.writer.basic, only), 200);
  const del = await app.client(p.owner.auth).DELETE('/repos/{owner}/{repo}', { params: { path: solo.path } });
  assert.is(del.response.status, 204);
  assert.ok(await app.services.lfs.store.stat(lfsKey(only.oid)), 'still held by the other repository');
  const gone = object('goes with its repository\n');
  const doomed = await sharedRepo(app, p);
  assert.is(await uploadObject(app, doomed.full_name, p.owner.basic, gone), 200);
  assert.is((await app.client(p.owner.auth).DELETE('/repos/{owner}/{repo}', { params: { path: doomed.path } })).response.status, 204);
  assert.is(await app.services.lfs.store.stat(lfsKey(gone.oid)), undefined);
});

test('gc_lfs removes objects of the store that no repository records', async () => {
  const stray = object('stray object\n');
  mkdirSync(home.dir, { recursive: true });
  const { Readable } = await import('node:stream');
  await app.services.lfs.store.put(lfsKey(stray.oid), Readable.from([stray.content]));
  assert.is(await app.services.lfs.collectGarbage(3600_000), 0, 'too young to go');
  assert.is(await app.services.lfs.collectGarbage(0, new Date(Date.now() + 1000)), 1);
  assert.is(await app.services.lfs.store.stat(lfsKey(stray.oid)), undefined);
  assert.ok(await app.services.lfs.store.stat(lfsKey(big.oid)), 'recorded objects stay');
});

test.run();
