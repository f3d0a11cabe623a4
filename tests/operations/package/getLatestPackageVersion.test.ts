// getLatestPackageVersion: a package's newest version.
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
  for (const v of ['1.0.0', '1.1.0']) await publishGeneric(app, w.writer, w.org.name, { name: 'tool', version: v });
});
test.after(async () => {
  await app.close();
});

const latest = (auth: string | undefined, name = 'tool') =>
  app.client(auth).GET('/packages/{owner}/{type}/{name}/-/latest', { params: { path: { owner: w.org.name, type: 'generic', name } } });

test('200: the newest version (not a version named "-")', async () => {
  const res = await latest(w.reader.auth);
  assert.is(res.response.status, 200);
  assertSpec('getLatestPackageVersion', res);
  assert.is(res.data!.version, '1.1.0');
});

test('404: unknown package, an outsider, anonymous', async () => {
  for (const [auth, name] of [[w.reader.auth, 'nope'], [w.outsider.auth, 'tool'], [undefined, 'tool']] as const) {
    const res = await latest(auth, name);
    assert.is(res.response.status, 404);
    assertSpec('getLatestPackageVersion', res);
  }
});

test.run();
