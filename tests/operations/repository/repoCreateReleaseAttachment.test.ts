// POST /repos/{owner}/{repo}/releases/{id}/assets: an attachment of the release, with the limits,
// storage and download of issue attachments; writers of releases only.
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertNothingLeft, attachmentDir, attachmentRowCount, filesUnder, storedPath } from '../../helpers/attachments.js';
import { setArchived } from '../../helpers/gitFixtures.js';
import { newRelease, releaseWorld, uploadAsset, type Release, type ReleaseWorld } from '../../helpers/releases.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let w: ReleaseWorld;
let rel: Release;
let draft: Release;

test.before(async () => {
  app = await startApp({ ATTACHMENT_MAX_SIZE: '1' });
  w = await releaseWorld(app);
  rel = await newRelease(app, w.path, { tag_name: 'v1' }, w.r.owner);
  draft = await newRelease(app, w.path, { tag_name: 'd1', draft: true }, w.r.owner);
});
test.after(async () => {
  await app?.close();
});

test('201: stored under its uuid, shown in the release, downloadable by readers through browser_download_url', async () => {
  const content = 'release bytes\n';
  const res = await uploadAsset(app, w.path, rel.id, { filename: 'app.txt', content }, w.r.writer);
  assert.is(res.response.status, 201, JSON.stringify(res.error));
  assertSpec('repoCreateReleaseAttachment', res);
  const a = res.data!;
  assert.is(a.name, 'app.txt');
  assert.is(a.size, content.length);
  assert.is(a.browser_download_url, `${app.config.rootUrl}attachments/${a.uuid}`);
  assert.is(readFileSync(storedPath(app, a.uuid), 'utf8'), content);
  const shown = await app.client().GET('/repos/{owner}/{repo}/releases/{id}', { params: { path: { ...w.path, id: rel.id } } });
  assert.equal(shown.data!.assets, [a]);
  const dl = await fetch(a.browser_download_url);
  assert.is(dl.status, 200);
  assert.is(await dl.text(), content);
  assert.match(dl.headers.get('content-disposition') ?? '', 'app.txt');
  const counted = await app.client().GET('/repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}', { params: { path: { ...w.path, id: rel.id, attachment_id: a.id } } });
  assert.is(counted.data!.download_count, 1);
});

test('201: ?name= overrides the file name; a draft\'s asset downloads for writers only', async () => {
  const res = await uploadAsset(app, w.path, draft.id, { filename: 'part.bin' }, w.r.owner, 'chosen.txt');
  assert.is(res.response.status, 201);
  assert.is(res.data!.name, 'chosen.txt');
  assert.is((await fetch(res.data!.browser_download_url)).status, 404);
  assert.is((await fetch(res.data!.browser_download_url, { headers: { Authorization: w.r.reader.auth } })).status, 404);
  assert.is((await fetch(res.data!.browser_download_url, { headers: { Authorization: w.r.writer.auth } })).status, 200);
});

test('201: any type by default (semantic-release\'s names: `App tarball`, app-linux-amd64, app.deb), whatever ATTACHMENT_ALLOWED_TYPES says', async () => {
  for (const [filename, name] of [['dist.tgz', 'App tarball'], ['app-linux-amd64', undefined], ['app.deb', undefined], ['tool.exe', undefined]] as const) {
    const res = await uploadAsset(app, w.path, rel.id, { filename, content: 'MZ\u0000\u0001binary' }, w.r.writer, name);
    assert.is(res.response.status, 201, `${filename}: ${JSON.stringify(res.error)}`);
    assert.is(res.data!.name, name ?? filename);
  }
  const issue = await app.client(w.r.owner.auth).POST('/repos/{owner}/{repo}/issues', { params: { path: w.path }, body: { title: 'attach here' } });
  const form = new FormData();
  form.append('attachment', new Blob(['MZ']), 'app.deb');
  const refused = await app.client(w.r.owner.auth).POST('/repos/{owner}/{repo}/issues/{index}/assets', {
    params: { path: { ...w.path, index: issue.data!.number } }, body: form as unknown as { attachment: string },
  });
  assert.is(refused.response.status, 422, 'issue attachments keep ATTACHMENT_ALLOWED_TYPES');
});

test('400 a type RELEASE_ALLOWED_TYPES does not list, 413 too large, 422 no attachment part: nothing left behind', async () => {
  const rows = await attachmentRowCount(app);
  const files = filesUnder(attachmentDir(app));
  const strict = await startApp({ RELEASE_ALLOWED_TYPES: '.txt,image/*' });
  try {
    const sw = await releaseWorld(strict);
    const srel = await newRelease(strict, sw.path, { tag_name: 'v1' }, sw.r.owner);
    const exe = await uploadAsset(strict, sw.path, srel.id, { filename: 'tool.exe', content: 'MZ' }, sw.r.owner);
    assert.is(exe.response.status, 400);
    assertSpec('repoCreateReleaseAttachment', exe);
    assert.is((await uploadAsset(strict, sw.path, srel.id, { filename: 'notes.txt' }, sw.r.owner)).response.status, 201);
  } finally {
    await strict.close();
  }
  const big = await uploadAsset(app, w.path, rel.id, { filename: 'big.txt', content: 'x'.repeat(1024 * 1024 + 1) }, w.r.owner);
  assert.is(big.response.status, 413);
  const none = await uploadAsset(app, w.path, rel.id, null, w.r.owner);
  assert.is(none.response.status, 422);
  assertSpec('repoCreateReleaseAttachment', none);
  await assertNothingLeft(app, rows, files, 'refused uploads');
});

test('401 anonymous, 403 reader, 404 unknown release or private repository for outsiders, 423 archived', async () => {
  assert.is((await uploadAsset(app, w.path, rel.id, {})).response.status, 401);
  const reader = await uploadAsset(app, w.path, rel.id, {}, w.r.reader);
  assert.is(reader.response.status, 403);
  assertSpec('repoCreateReleaseAttachment', reader);
  assert.is((await uploadAsset(app, w.path, 999999, {}, w.r.owner)).response.status, 404);
  const p = await newRelease(app, w.privPath, { tag_name: 'p1' }, w.r.owner);
  assert.is((await uploadAsset(app, w.privPath, p.id, {}, w.r.outsider)).response.status, 404);
  assert.is((await uploadAsset(app, w.path, p.id, {}, w.r.owner)).response.status, 404, 'another repository\'s release');
  await setArchived(app, w.priv, w.r.owner);
  const archived = await uploadAsset(app, w.privPath, p.id, {}, w.r.owner);
  assert.is(archived.response.status, 423);
  assertSpec('repoCreateReleaseAttachment', archived);
});

test.run();
