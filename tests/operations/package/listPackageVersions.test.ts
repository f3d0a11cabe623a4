// listPackageVersions: one package's versions, newest first.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { packageWorld, publishGeneric, type PackageWorld } from '../../helpers/packages.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let w: PackageWorld;
test.before(async () => {
  app = await startApp();
  w = await packageWorld(app);
  for (const v of ['1', '2', '3']) await publishGeneric(app, w.writer, w.org.name, { name: 'tool', version: v });
  await publishGeneric(app, w.writer, w.org.name, { name: 'other' });
});
test.after(async () => {
  await app.close();
});

const versions = (auth: string | undefined, name = 'tool', query: { page?: number; limit?: number } = {}) =>
  app.client(auth).GET('/packages/{owner}/{type}/{name}', { params: { path: { owner: w.org.name, type: 'generic', name }, query } });

test('200: this package\'s versions only, newest first, paged', async () => {
  const res = await versions(w.reader.auth);
  assert.is(res.response.status, 200);
  assertSpec('listPackageVersions', res);
  assert.equal(res.data!.map((p) => p.version), ['3', '2', '1']);
  assert.is(res.response.headers.get('x-total-count'), '3');
  assert.equal((await versions(w.reader.auth, 'tool', { page: 2, limit: 2 })).data!.map((p) => p.version), ['1']);
});

test('404: unknown package, an outsider, anonymous', async () => {
  for (const [auth, name] of [[w.reader.auth, 'nope'], [w.outsider.auth, 'tool'], [undefined, 'tool']] as const) {
    const res = await versions(auth, name);
    assert.is(res.response.status, 404);
    assertSpec('listPackageVersions', res);
  }
});

test.run();
