// getPackage: one version of a package.
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
  await publishGeneric(app, w.writer, w.org.name, { name: 'tool', version: '1.0.0' });
});
test.after(async () => {
  await app.close();
});

const get = (auth: string | undefined, name = 'tool', version = '1.0.0', type = 'generic') =>
  app.client(auth).GET('/packages/{owner}/{type}/{name}/{version}', { params: { path: { owner: w.org.name, type, name, version } } });

test('200 to members, names case-insensitive', async () => {
  for (const who of [w.reader, w.writer, w.orgOwner]) {
    const res = await get(who.auth);
    assert.is(res.response.status, 200);
    assertSpec('getPackage', res);
    assert.equal([res.data!.name, res.data!.version, res.data!.type], ['tool', '1.0.0', 'generic']);
    assert.ok(res.data!.html_url.endsWith(`/${w.org.name}/-/packages/generic/tool/1.0.0`));
  }
  assert.is((await get(w.reader.auth, 'TOOL')).response.status, 200);
});

test('404: unknown version, name or type; an outsider; anonymous', async () => {
  for (const [auth, name, version, type] of [
    [w.reader.auth, 'tool', '9'], [w.reader.auth, 'nope', '1.0.0'], [w.reader.auth, 'tool', '1.0.0', 'npm'],
    [w.outsider.auth, 'tool', '1.0.0'], [undefined, 'tool', '1.0.0'],
  ] as const) {
    const res = await get(auth, name, version, type);
    assert.is(res.response.status, 404, `${name} ${version} ${type}`);
    assertSpec('getPackage', res);
  }
});

test.run();
