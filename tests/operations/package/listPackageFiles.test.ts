// listPackageFiles: a version's files with their sizes and digests.
import { createHash } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { packageWorld, publishGeneric, putGeneric, type PackageWorld } from '../../helpers/packages.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let w: PackageWorld;
test.before(async () => {
  app = await startApp();
  w = await packageWorld(app);
});
test.after(async () => {
  await app.close();
});

const files = (auth: string | undefined, name: string, version = '1.0.0') =>
  app.client(auth).GET('/packages/{owner}/{type}/{name}/{version}/files', { params: { path: { owner: w.org.name, type: 'generic', name, version } } });

test('200: each file with Size and its digests', async () => {
  const { name } = await publishGeneric(app, w.writer, w.org.name, { body: 'hello', file: 'a.txt' });
  assert.is((await putGeneric(app, w.writer.auth, w.org.name, name, '1.0.0', 'b.txt', 'world!')).status, 201);
  const res = await files(w.reader.auth, name);
  assert.is(res.response.status, 200);
  assertSpec('listPackageFiles', res);
  const h = (alg: string, s: string) => createHash(alg).update(s).digest('hex');
  assert.equal(res.data!.map((f) => [f.name, f.Size, f.md5, f.sha1, f.sha256, f.sha512]), [
    ['a.txt', 5, h('md5', 'hello'), h('sha1', 'hello'), h('sha256', 'hello'), h('sha512', 'hello')],
    ['b.txt', 6, h('md5', 'world!'), h('sha1', 'world!'), h('sha256', 'world!'), h('sha512', 'world!')],
  ]);
});

test('404: unknown version, an outsider, anonymous', async () => {
  const { name } = await publishGeneric(app, w.writer, w.org.name);
  for (const [auth, version] of [[w.reader.auth, '2'], [w.outsider.auth, '1.0.0'], [undefined, '1.0.0']] as const) {
    const res = await files(auth, name, version);
    assert.is(res.response.status, 404);
    assertSpec('listPackageFiles', res);
  }
});

test.run();
