// deletePackage: removes a version and its files; writers only (403 for a reader).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { genericUrl, packageWorld, publishGeneric, type PackageWorld } from '../../helpers/packages.js';
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

const del = (auth: string | undefined, name: string, version = '1.0.0') =>
  app.client(auth).DELETE('/packages/{owner}/{type}/{name}/{version}', { params: { path: { owner: w.org.name, type: 'generic', name, version } } });

test('204 for a writer: the version and its file are gone, the package with its last version', async () => {
  const { name } = await publishGeneric(app, w.writer, w.org.name);
  await publishGeneric(app, w.writer, w.org.name, { name, version: '2.0.0' });
  const res = await del(w.writer.auth, name);
  assert.is(res.response.status, 204);
  assertSpec('deletePackage', res);
  assert.is((await fetch(genericUrl(app, w.org.name, name, '1.0.0', 'file.bin'), { headers: { Authorization: w.writer.auth } })).status, 404);
  assert.is((await del(w.orgOwner.auth, name, '2.0.0')).response.status, 204);
  const versions = await app.client(w.writer.auth).GET('/packages/{owner}/{type}/{name}', { params: { path: { owner: w.org.name, type: 'generic', name } } });
  assert.is(versions.response.status, 404);
});

test('403 for a reader, 404 for an outsider, 401 anonymous, 404 unknown', async () => {
  const { name } = await publishGeneric(app, w.writer, w.org.name);
  const reader = await del(w.reader.auth, name);
  assert.is(reader.response.status, 403);
  assertSpec('deletePackage', reader);
  assert.is((await del(w.outsider.auth, name)).response.status, 404);
  assert.is((await del(undefined, name)).response.status, 401);
  assert.is((await del(w.writer.auth, name, '9.9')).response.status, 404);
  assert.is((await app.client(w.writer.auth).GET('/packages/{owner}/{type}/{name}/{version}', { params: { path: { owner: w.org.name, type: 'generic', name, version: '1.0.0' } } })).response.status, 200);
});

test.run();
