// GET /repos/{owner}/{repo}/archive/{archive}: zip and tar.gz of a ref, streamed from git archive.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { disk, fetchRaw } from '../../helpers/gitFixtures.js';
import { assertReadGuards, historyWorld, type HistoryWorld } from '../../helpers/gitData.js';
import { assertSpecAnswer } from '../../helpers/spec-check.js';

let app: TestApp;
let w: HistoryWorld;
let tmp: string;
const big = randomBytes(24 * 1024 * 1024); // incompressible: the archive is at least this large

test.before(async () => {
  app = await startApp();
  w = await historyWorld(app);
  await disk.commit(w.dir, 'big', { 'big.bin': big }, { from: 'main' });
  tmp = mkdtempSync(join(tmpdir(), 'anvil-archive-'));
});
test.after(async () => {
  rmSync(tmp, { recursive: true, force: true });
  await app.close();
});

const archive = (name: string, auth?: string, full = w.repo.full_name) => fetchRaw(app, `/repos/${full}/archive/${name}`, auth);

test('200: a zip of a branch with a slash, files under the repository folder', async () => {
  const res = await archive('feature/x.zip');
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-type'), 'application/octet-stream');
  assert.is(res.headers.get('content-disposition'), `attachment; filename*=UTF-8''${w.repo.name}-feature-x.zip`);
  const file = join(tmp, 'a.zip');
  writeFileSync(file, res.bytes);
  const listing = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' });
  const prefix = `${w.repo.name.toLowerCase()}/`;
  assert.equal(listing.trim().split('\n').sort(), [prefix, `${prefix}README.md`, `${prefix}docs/`, `${prefix}docs/x.md`, `${prefix}feat.txt`, `${prefix}src/`, `${prefix}src/a.txt`, `${prefix}src/b.txt`].sort());
});

test('200: a tar.gz of a tag and of a commit id', async () => {
  for (const ref of ['v1', w.main[1]!]) {
    const res = await archive(`${ref}.tar.gz`);
    assert.is(res.status, 200, ref);
    assert.equal([...res.bytes.subarray(0, 2)], [0x1f, 0x8b], 'gzip');
    const file = join(tmp, 'a.tar.gz');
    writeFileSync(file, res.bytes);
    const names = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).trim().split('\n');
    assert.ok(names.includes(`${w.repo.name.toLowerCase()}/src/a.txt`), ref);
  }
});

test('200: a large archive is streamed (chunked, no length) and arrives whole', async () => {
  const res = await fetch(`${app.url}/api/v1/repos/${w.repo.full_name}/archive/big.tar.gz`);
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-length'), null);
  assert.is(res.headers.get('transfer-encoding'), 'chunked');
  let size = 0;
  let chunks = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    chunks++;
  }
  assert.ok(size > big.length, `archive of ${size} bytes`);
  assert.ok(chunks > 10, `${chunks} chunks`);
  // A client that goes away early: the server stops git and goes on answering.
  const ac = new AbortController();
  const early = await fetch(`${app.url}/api/v1/repos/${w.repo.full_name}/archive/big.zip`, { signal: ac.signal });
  const reader = early.body!.getReader();
  await reader.read();
  ac.abort();
  assert.is((await archive('main.zip')).status, 200);
});

test('200/404 by visibility; 401 for a wrong token', async () => {
  await assertReadGuards(app, w, 'repoGetArchive', async (repo, auth) => {
    const res = await archive('main.zip', auth, repo.full_name);
    return { status: res.status, body: undefined };
  });
});

test('400: an unknown format; 404: an unknown ref, an empty repository', async () => {
  for (const name of ['main.rar', 'main', 'main.bundle']) {
    const res = await archive(name);
    assert.is(res.status, 400, name);
    assertSpecAnswer('repoGetArchive', 400, JSON.parse(res.bytes.toString()));
  }
  for (const name of ['nope.zip', '.zip', '--all.tar.gz']) assert.is((await archive(name)).status, 404, name);
  assert.is((await archive('main.zip', w.r.owner.auth, w.empty.full_name)).status, 404);
});

test.run();
