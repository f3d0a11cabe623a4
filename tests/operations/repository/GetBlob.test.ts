// GET /repos/{owner}/{repo}/git/blobs/{sha}: a blob's bytes in base64.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { disk } from '../../helpers/gitFixtures.js';
import { assertReadGuards, historyWorld, jget, type HistoryWorld } from '../../helpers/gitData.js';
import { assertSpecAnswer } from '../../helpers/spec-check.js';

let app: TestApp;
let w: HistoryWorld;

test.before(async () => {
  app = await startApp();
  w = await historyWorld(app);
});
test.after(async () => {
  await app.close();
});

const blobAt = async (rev: string) => (await disk.run(w.dir, ['rev-parse', rev])).trim();
const blob = (sha: string, auth?: string, full = w.repo.full_name) => jget(app, `/repos/${full}/git/blobs/${sha}`, auth);

test('200: content in base64, size and url', async () => {
  const sha = await blobAt('main:src/a.txt');
  const res = await blob(sha);
  assert.is(res.status, 200);
  assertSpecAnswer('GetBlob', 200, res.body);
  assert.equal(res.body, { content: Buffer.from('a2\nmore\n').toString('base64'), encoding: 'base64', url: `${w.api}/git/blobs/${sha}`, sha, size: 8 });
});

test('200/404 by visibility; 401 for a wrong token', async () => {
  const sha = await blobAt('main:README.md');
  await assertReadGuards(app, w, 'GetBlob', async (repo, auth) => {
    // The private repository's README is another blob; its own id is asked there.
    const id = repo.full_name === w.priv.full_name ? (await disk.run(w.dir.replace(w.repo.name.toLowerCase(), w.priv.name.toLowerCase()), ['rev-parse', 'main:README.md'])).trim() : sha;
    const res = await blob(id, auth, repo.full_name);
    return { status: res.status, body: res.body };
  });
});

test('400: not a blob of this repository (Gitea)', async () => {
  for (const sha of [w.main[3]!, await blobAt('main^{tree}'), 'f'.repeat(40), 'main', 'abc']) {
    const res = await blob(sha);
    assert.is(res.status, 400, sha);
    assertSpecAnswer('GetBlob', 400, res.body);
  }
});

test.run();
