// What the API answers about a file Debian's git-lfs pushed, as Gitea answers it: contents name the object
// (`lfs_oid`, `lfs_size`) and keep the pointer as content; raw serves the pointer, media the object;
// archives hold the pointer (Gitea exports what `git archive` does: go-gitea/gitea#4773 is still open);
// the repository's size counts its LFS objects.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../helpers/harness.js';
import { fetchRaw } from '../helpers/gitFixtures.js';
import { people, sharedRepo, type People, type Repo } from '../helpers/issues.js';
import { binary, gitLfs, httpRemote, lfsHome, pointerOf } from '../helpers/lfs.js';

const run = promisify(execFile);

let app: TestApp;
let p: People;
let repo: Repo;
const home = lfsHome();
let big: { path: string; oid: string; size: number };

test.before(async () => {
  app = await startApp();
  p = await people(app);
  repo = await sharedRepo(app, p, { private: true });
  const work = join(home.dir, 'push');
  assert.is((await gitLfs(home.env, home.dir, ['clone', '-q', httpRemote(app, p.writer, repo.full_name), work])).code, 0);
  assert.is((await gitLfs(home.env, work, ['lfs', 'track', '*.bin'])).code, 0);
  big = binary(work, 'data.bin', 3 * 1024 * 1024);
  await gitLfs(home.env, work, ['add', '.gitattributes', 'data.bin']);
  await gitLfs(home.env, work, ['commit', '-q', '-m', 'a binary']);
  const push = await gitLfs(home.env, work, ['push', 'origin', 'HEAD:main']);
  assert.is(push.code, 0, push.stderr);
});
test.after(async () => {
  await app.close();
});

test('contents: a pointer file names its object (lfs_oid, lfs_size); content stays the pointer, download_url the raw one', async () => {
  const res = await app.client(p.reader.auth).GET('/repos/{owner}/{repo}/contents/{filepath}', { params: { path: { ...repo.path, filepath: 'data.bin' } } });
  assert.is(res.response.status, 200);
  const file = res.data as { lfs_oid?: string; lfs_size?: number; content: string; size: number; download_url: string };
  assert.is(file.lfs_oid, big.oid);
  assert.is(file.lfs_size, big.size);
  assert.is(Buffer.from(file.content, 'base64').toString(), pointerOf(big));
  assert.is(file.size, Buffer.byteLength(pointerOf(big)), 'size is the blob\'s');
  assert.is(file.download_url, `${app.config.rootUrl}${repo.full_name}/raw/main/data.bin`);
  // A plain file has neither; directory entries carry no LFS metadata, as Gitea's.
  const readme = await app.client(p.reader.auth).GET('/repos/{owner}/{repo}/contents/{filepath}', { params: { path: { ...repo.path, filepath: '.gitattributes' } } });
  assert.not.ok('lfs_oid' in (readme.data as object));
  const list = await app.client(p.reader.auth).GET('/repos/{owner}/{repo}/contents', { params: { path: repo.path } });
  const entry = (list.data as Array<{ name: string; lfs_oid?: string }>).find((e) => e.name === 'data.bin');
  assert.ok(entry && !('lfs_oid' in entry), 'a listing does not read the entries\' content');
});

test('raw serves the pointer; media serves the object the writer pushed', async () => {
  const raw = await fetchRaw(app, `/repos/${repo.full_name}/raw/data.bin`, p.reader.auth);
  assert.is(raw.status, 200);
  assert.is(raw.bytes.toString(), pointerOf(big));
  const media = await fetchRaw(app, `/repos/${repo.full_name}/media/data.bin`, p.reader.auth);
  assert.is(media.status, 200);
  assert.is(media.headers.get('content-length'), String(big.size));
  assert.ok(media.bytes.equals(readFileSync(big.path)), 'the object\'s bytes');
});

test('archives (zip, tar.gz) hold the pointer, as Gitea\'s', async () => {
  const name = repo.name.toLowerCase();
  for (const format of ['zip', 'tar.gz']) {
    const res = await fetch(`${app.url}/api/v1/repos/${repo.full_name}/archive/main.${format}`, { headers: { Authorization: p.reader.auth } });
    assert.is(res.status, 200, format);
    const file = join(home.dir, `archive.${format}`);
    await import('node:fs/promises').then((fs) => res.arrayBuffer().then((b) => fs.writeFile(file, Buffer.from(b))));
    const inside = format === 'zip'
      ? (await run('unzip', ['-p', file, `${name}/data.bin`])).stdout
      : (await run('tar', ['-xzOf', file, `${name}/data.bin`])).stdout;
    assert.is(inside, pointerOf(big), format);
  }
});

test('the repository\'s size counts its LFS objects beside its git folder', async () => {
  const res = await app.client(p.reader.auth).GET('/repos/{owner}/{repo}', { params: { path: repo.path } });
  const kb = res.data!.size;
  assert.ok(kb * 1024 > big.size, `size ${kb} KB counts the ${big.size}-byte object`);
  assert.ok(kb < (big.size + 1024 * 1024) / 1024, `size ${kb} KB: the object once, the git folder small`);
});

test.run();
