// The blob kinds on S3-compatible storage (a local s3rver on 127.0.0.1, ANVIL_TEST_STORAGE=s3): a
// representative subset of the attachment, release-asset, avatar and LFS tests, rerun against it (the
// Actions artifact and log tests run whole with ANVIL_TEST_STORAGE=s3: docs/lfs-and-storage.md).
// Nothing lands in $DATA_DIR; SERVE_DIRECT sends downloads to presigned URLs of the bucket.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lfsKey } from '../../src/storage/lfsObjects.js';
import { attachmentWorld, newIssue, uploadToIssue, type AttachmentWorld } from '../helpers/attachments.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { people, sharedRepo } from '../helpers/issues.js';
import { binary, gitLfs, httpRemote, lfsApi, lfsHome, object, pointerOf } from '../helpers/lfs.js';
import { newRelease, uploadAsset } from '../helpers/releases.js';
import { pathOf, userRepo } from '../helpers/repos.js';
import { assertRanges } from '../helpers/ranges.js';
import { startS3, type LocalS3 } from '../helpers/s3.js';
import { actionsWorld, seedRuns } from '../helpers/actions.js';
import { seedArtifact } from '../helpers/artifacts.js';

let app: TestApp;
let w: AttachmentWorld;
let s3: LocalS3;
const home = lfsHome();

test.before(async () => {
  process.env.ANVIL_TEST_STORAGE = 's3';
  app = await startApp();
  delete process.env.ANVIL_TEST_STORAGE;
  w = await attachmentWorld(app);
});
test.after(async () => {
  await app.close();
  await s3?.close();
});

test('the configuration puts every kind in the bucket', () => {
  for (const kind of ['attachments', 'avatars', 'lfs', 'actions_log', 'actions_artifacts', 'packages'] as const) assert.is(app.config.storage[kind].type, 'minio');
  assert.is(app.config.storage.lfs.minio.basePath, 'lfs/');
});

test('an issue attachment is stored in S3 and downloads whole; nothing is written under DATA_DIR/attachments', async () => {
  const issue = await newIssue(app, w, w.owner);
  const bytes = Buffer.alloc(300_000, 7);
  const up = await uploadToIssue(app, w, issue.number, { filename: 'data.zip', content: bytes }, w.owner);
  assert.is(up.response.status, 201, JSON.stringify(up.error));
  const res = await fetch(up.data!.browser_download_url, { headers: { Authorization: w.reader.basic } });
  assert.is(res.status, 200);
  assert.ok(Buffer.from(await res.arrayBuffer()).equals(bytes));
  assert.not.ok(existsSync(join(app.config.dataDir, 'attachments')), 'no local attachment folder');
});

test('a release asset is stored in S3 and downloads', async () => {
  const repo = await userRepo(app, w.owner, { auto_init: true });
  const release = await newRelease(app, pathOf(repo), { tag_name: 'v1', target_commitish: 'main', name: 'v1' }, w.owner);
  const up = await uploadAsset(app, pathOf(repo), release.id, { filename: 'tool.txt', content: 'release asset in s3\n' }, w.owner);
  assert.is(up.response.status, 201, JSON.stringify(up.error));
  const res = await fetch(up.data!.browser_download_url);
  assert.is(res.status, 200);
  assert.is(await res.text(), 'release asset in s3\n');
});

test('an uploaded avatar is stored in S3 and served', async () => {
  // A 1×1 PNG.
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
  const up = await app.client(w.owner.auth).POST('/user/avatar', { body: { image: png } });
  assert.is(up.response.status, 204, JSON.stringify(up.error));
  const user = await app.client(w.owner.auth).GET('/user');
  const res = await fetch(user.data!.avatar_url!);
  assert.is(res.status, 200);
  assert.ok(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(png, 'base64')));
  assert.not.ok(existsSync(join(app.config.dataDir, 'avatars')));
});

test('git-lfs pushes a 12 MB binary (a multipart upload) into S3 and a reader clones it', async () => {
  const p = await people(app);
  const repo = await sharedRepo(app, p, { private: true });
  const work = join(home.dir, 'push');
  assert.is((await gitLfs(home.env, home.dir, ['clone', '-q', httpRemote(app, p.writer, repo.full_name), work])).code, 0);
  await gitLfs(home.env, work, ['lfs', 'track', '*.bin']);
  const big = binary(work, 'big.bin', 12 * 1024 * 1024);
  await gitLfs(home.env, work, ['add', '.gitattributes', 'big.bin']);
  await gitLfs(home.env, work, ['commit', '-q', '-m', 'binary']);
  const push = await gitLfs(home.env, work, ['push', 'origin', 'HEAD:main']);
  assert.is(push.code, 0, push.stderr);
  assert.is((await app.services.lfs.store.stat(lfsKey(big.oid)))?.size, big.size);
  const clone = join(home.dir, 'clone');
  const r = await gitLfs(home.env, home.dir, ['clone', '-q', httpRemote(app, p.reader, repo.full_name), clone]);
  assert.is(r.code, 0, r.stderr);
  assert.ok(readFileSync(join(clone, 'big.bin')).equals(readFileSync(big.path)));
  // A wrong oid is refused and no object is left in the bucket.
  const obj = object('right content\n');
  const wrong = object('wrong\n').oid;
  const put = await lfsApi(app, repo.full_name, 'PUT', `/objects/${wrong}/${obj.size}`, { auth: p.writer.basic, body: obj.content });
  assert.is(put.status, 422);
  assert.is(await app.services.lfs.store.stat(lfsKey(wrong)), undefined);
});

test('media: byte ranges of an LFS object are ranged reads of the S3 object', async () => {
  const p = await people(app);
  const repo = await sharedRepo(app, p);
  const obj = object(Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251)));
  const batchUp = await lfsApi(app, repo.full_name, 'POST', '/objects/batch', { auth: p.writer.basic, json: { operation: 'upload', objects: [{ oid: obj.oid, size: obj.size }] } });
  const action = batchUp.json.objects[0].actions.upload;
  assert.is((await fetch(action.href, { method: 'PUT', headers: action.header, body: new Uint8Array(obj.content) })).status, 200);
  const commit = await app.client(p.writer.auth).POST('/repos/{owner}/{repo}/contents/{filepath}', {
    params: { path: { ...repo.path, filepath: 'obj.bin' } }, body: { content: Buffer.from(pointerOf(obj)).toString('base64') },
  });
  assert.is(commit.response.status, 201);
  assert.is((await app.services.lfs.store.stat(lfsKey(obj.oid)))?.size, obj.size, 'the object is in the bucket');
  await assertRanges(`${app.url}/api/v1/repos/${repo.full_name}/media/obj.bin`, obj.content, `"${obj.oid}"`, { Authorization: p.reader.auth });
});

test('SERVE_DIRECT: attachment and LFS downloads are redirects to presigned URLs that serve the bytes', async () => {
  s3 = await startS3();
  const direct = await startApp({ ...s3.env, STORAGE_SERVE_DIRECT: 'true' });
  try {
    const dw = await attachmentWorld(direct);
    const issue = await newIssue(direct, dw, dw.owner);
    const up = await uploadToIssue(direct, dw, issue.number, { filename: 'a.txt', content: 'served directly\n' }, dw.owner);
    assert.is(up.response.status, 201);
    const res = await fetch(up.data!.browser_download_url, { redirect: 'manual' });
    assert.is(res.status, 303);
    const location = res.headers.get('location')!;
    assert.ok(location.startsWith(`http://${s3.endpoint}/`), location);
    assert.is(await (await fetch(location)).text(), 'served directly\n');

    const p = await people(direct);
    const repo = await sharedRepo(direct, p);
    const obj = object('lfs served directly\n');
    const batchUp = await lfsApi(direct, repo.full_name, 'POST', '/objects/batch', { auth: p.writer.basic, json: { operation: 'upload', objects: [{ oid: obj.oid, size: obj.size }] } });
    const action = batchUp.json.objects[0].actions.upload;
    assert.is((await fetch(action.href, { method: 'PUT', headers: action.header, body: new Uint8Array(obj.content) })).status, 200);
    const down = await lfsApi(direct, repo.full_name, 'POST', '/objects/batch', { auth: p.reader.basic, json: { operation: 'download', objects: [{ oid: obj.oid, size: obj.size }] } });
    const href = down.json.objects[0].actions.download.href as string;
    assert.ok(href.startsWith(`http://${s3.endpoint}/`), href);
    assert.is(await (await fetch(href)).text(), 'lfs served directly\n');
    // media of a pointer to the object: a 303 to a presigned URL too (Gitea's GetRawFileOrLFS with SERVE_DIRECT).
    const commit = await direct.client(p.writer.auth).POST('/repos/{owner}/{repo}/contents/{filepath}', {
      params: { path: { ...repo.path, filepath: 'obj.bin' } }, body: { content: Buffer.from(pointerOf(obj)).toString('base64') },
    });
    assert.is(commit.response.status, 201);
    const media = await fetch(`${direct.url}/api/v1/repos/${repo.full_name}/media/obj.bin`, { headers: { Authorization: p.reader.auth }, redirect: 'manual' });
    assert.is(media.status, 303);
    const signed = media.headers.get('location')!;
    assert.ok(signed.startsWith(`http://${s3.endpoint}/`), signed);
    assert.is(await (await fetch(signed)).text(), 'lfs served directly\n');

    // A v4 Actions artifact's zip: a 302 to a presigned URL (Gitea's DownloadArtifact with SERVE_DIRECT).
    const aw = await actionsWorld(direct);
    const [run] = await seedRuns(direct, aw.pub, aw.owner.id, [{ status: 'success' }]);
    const zip = Buffer.from('PK\x05\x06' + '\0'.repeat(18), 'binary');
    const artifact = await seedArtifact(direct, run!, { bytes: zip });
    const art = await fetch(`${direct.url}/api/v1/repos/${aw.owner.username}/${aw.pub.name}/actions/artifacts/${artifact.id}/zip`, { headers: { Authorization: aw.owner.basic }, redirect: 'manual' });
    assert.is(art.status, 302);
    const artUrl = art.headers.get('location')!;
    assert.ok(artUrl.startsWith(`http://${s3.endpoint}/`), artUrl);
    assert.ok(Buffer.from(await (await fetch(artUrl)).arrayBuffer()).equals(zip));
  } finally {
    await direct.close();
  }
});

test.run();
